// A model that floods a step: one reply with a thousand tool calls, and a create of a file of
// several megabytes. The real CLI runs as a child process against the scripted model. Only the
// capped number of calls runs (the rest are answered with an error, so the next request stays
// valid), a flood never turns into a flood of confirmations, and a created file's text is stored
// once, with review and undo still able to read it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { observationNewContent } from '../../../src/core/events';
import { isCorruptRecord, openEventStore } from '../../../src/core/log';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';

type Json = Record<string, unknown>;

const FLOOD = 1000;
const DEFAULT_CAP = 32;
const repoRoot = join(__dirname, '..', '..', '..');

/** About `chars` characters of real TypeScript (quotes, newlines, indentation), cycled. */
function sourceText(chars: number): string {
  const dir = join(repoRoot, 'src', 'core', 'agent');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  let text = '';
  for (let i = 0; text.length < chars; i++) text += files[i % files.length]!;
  return text.slice(0, chars);
}

/** Bytes of the conversation's log: its segment files. */
function logBytes(store: string): number {
  const dir = join(store, 'segments');
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

function createCall(i: number, risk: 'LOW' | 'MEDIUM' | 'HIGH' = 'LOW') {
  const name = `f${String(i).padStart(4, '0')}.txt`;
  return {
    id: `call_flood_${i}`,
    name: 'file_editor',
    arguments: { command: 'create', path: `out/${name}`, file_text: `${i}\n`, security_risk: risk },
  };
}

async function storedEvents(dir: string): Promise<Json[]> {
  const log = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  try {
    const slots = await log.slice();
    assert.ok(!slots.some((s) => isCorruptRecord(s)), 'every record of the log is readable');
    return slots as unknown as Json[];
  } finally {
    await log.close();
  }
}

/** Every tool call of the assistant message answered by exactly one tool message right after it. */
function assertPaired(messages: Json[]): void {
  for (const [i, m] of messages.entries()) {
    const calls = (m.tool_calls as { id: string }[] | undefined) ?? [];
    if (m.role !== 'assistant' || calls.length === 0) continue;
    const answers = messages.slice(i + 1, i + 1 + calls.length);
    assert.deepEqual(
      answers.map((a) => [a.role, a.tool_call_id]),
      calls.map((c) => ['tool', c.id]),
    );
  }
}

describe('hostile model: bounds of one step', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it(`a reply with ${FLOOD} tool calls: only the cap runs, the rest are answered, the next request is valid`, async () => {
    const env = await fx.startLlm({
      name: 'hostile-flood',
      turns: [
        { reply: { chunkSize: 4096, toolCalls: Array.from({ length: FLOOD }, (_, i) => createCall(i)) } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'not run' },
          reply: { content: 'Understood, one at a time.' },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'flood', '--confirm', 'never', '--store', store, '--json'],
      { env, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, printed(r).slice(0, 4000));

    // Only the first calls ran.
    const created = readdirSync(join(ws, 'out')).sort();
    assert.equal(created.length, DEFAULT_CAP);
    assert.deepEqual(
      created,
      Array.from({ length: DEFAULT_CAP }, (_, i) => `f${String(i).padStart(4, '0')}.txt`),
    );

    // The next request answers every call, in order; the scripted server rejects an invalid one.
    const bodies = fx.llm!.completionBodies();
    assert.equal(bodies.length, 2);
    const messages = bodies[1]!.messages as Json[];
    assertPaired(messages);
    const tools = messages.filter((m) => m.role === 'tool');
    assert.equal(tools.length, FLOOD);
    const refused = tools.filter((m) => String(m.content).includes('was not run'));
    assert.equal(refused.length, FLOOD - DEFAULT_CAP);
    assert.match(String(refused[0]!.content), /1000 tool calls; only the first 32 run/);

    // Nothing recorded is lost: every printed event is in the log, every call has its one answer.
    const events = await storedEvents(store);
    assert.deepEqual(
      events.map((e) => e.id),
      jsonLines(r).map((e) => e.id),
    );
    // Every call is recorded (as OpenHands does); those past the cap with no action, never run.
    const calls = events.filter((e) => e.kind === 'ActionEvent');
    assert.equal(calls.length, FLOOD);
    assert.equal(calls.filter((e) => e.action !== null).length, DEFAULT_CAP);
    assert.equal(events.filter((e) => e.kind === 'ObservationEvent').length, DEFAULT_CAP);
    const errors = events.filter((e) => e.kind === 'AgentErrorEvent');
    assert.equal(errors.length, FLOOD - DEFAULT_CAP);
    assert.deepEqual(
      errors.map((e) => e.tool_call_id),
      Array.from({ length: FLOOD - DEFAULT_CAP }, (_, i) => `call_flood_${i + DEFAULT_CAP}`),
    );
  });

  it('risky calls past the cap never wait for confirmation; --max-tool-calls sets the cap', async () => {
    const env = await fx.startLlm({
      name: 'hostile-flood-confirm',
      turns: [
        {
          reply: {
            chunkSize: 4096,
            // HIGH: a MEDIUM create inside the workspace is contained (a checkpoint undoes it) and
            // would run unasked in the default mode.
            toolCalls: Array.from({ length: FLOOD }, (_, i) => createCall(i, 'HIGH')),
          },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'flood', '--store', store, '--max-tool-calls', '5'],
      { env, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 2, printed(r).slice(0, 4000));
    assert.ok(!existsSync(join(ws, 'out')), 'nothing ran before confirmation');
    const show = await runCli(['show', store, '--json']);
    assert.equal(show.code, 0, printed(show));
    const state = JSON.parse(show.stdout) as Json;
    assert.equal(state.status, 'waiting_for_confirmation');
    assert.equal((state.pending_actions as unknown[]).length, 5);

    // approve keeps the run's cap (session.json) and runs the five.
    fx.llm!.setScenario({ name: 'after-approve', turns: [{ reply: { content: 'Done.' } }] });
    const approve = await runCli(['approve', store], { env, timeoutMs: 90_000 });
    assert.equal(approve.code, 0, printed(approve).slice(0, 4000));
    assert.equal(readdirSync(join(ws, 'out')).length, 5);
    assertPaired(fx.llm!.completionBodies().at(-1)!.messages as Json[]);
  });

  it('a create of a multi-MB file: the log holds its text once; the file, the next request and the export are whole', async () => {
    // Under the 4 MiB a reply may bring (the LLM client's size limit) once JSON-escaped.
    const text = sourceText(3_000_000);
    const args = {
      command: 'create',
      path: 'gen/big.ts',
      file_text: text,
      security_risk: 'LOW',
      summary: 'big',
    };
    const env = await fx.startLlm({
      name: 'hostile-big-create',
      turns: [
        {
          reply: { chunkSize: 65_536, toolCalls: [{ id: 'call_big', name: 'file_editor', arguments: args }] },
        },
        { match: { lastRole: 'tool', toolResultIncludes: 'Created' }, reply: { content: 'Created it.' } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'write a big file', '--confirm', 'never', '--store', store],
      { env, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, printed(r).slice(0, 4000));
    assert.equal(readFileSync(join(ws, 'gen', 'big.ts'), 'utf8'), text);

    // About one copy: the tool call's arguments, the action and the observation used to hold three.
    const size = Buffer.byteLength(text);
    const bytes = logBytes(store);
    assert.ok(bytes < 1.5 * size, `the log holds ${bytes} bytes for a ${size}-byte file`);

    // The next request repeats the model's call exactly as it was sent.
    const assistant = (fx.llm!.completionBodies()[1]!.messages as Json[]).find(
      (m) => m.role === 'assistant',
    )!;
    const call = (assistant.tool_calls as { function: { arguments: string } }[])[0]!;
    assert.equal(call.function.arguments, JSON.stringify(args));

    // The review reads the created text from the log (the observation refers to its action).
    const events = await storedEvents(store);
    const action = events.find((e) => e.kind === 'ActionEvent')!;
    const observation = events.find((e) => e.kind === 'ObservationEvent')!;
    assert.equal(observationNewContent(observation.observation as Json, action), text);
    assert.equal((action.tool_call as Json).arguments, JSON.stringify(args));

    // OpenHands gets every copy back.
    const out = join(fx.tmp(), 'export');
    const exported = await runCli(['export-openhands', store, out]);
    assert.equal(exported.code, 0, printed(exported));
    const files = readdirSync(join(out, 'events')).map(
      (f) => JSON.parse(readFileSync(join(out, 'events', f), 'utf8')) as Json,
    );
    const obs = files.find((e) => e.kind === 'ObservationEvent')!.observation as Json;
    assert.equal(obs.new_content, text);
    assert.ok(!('new_content_from_action' in obs));
    const act = files.find((e) => e.kind === 'ActionEvent')!;
    assert.equal((act.tool_call as Json).arguments, JSON.stringify(args));
    assert.equal((act.action as Json).file_text, text);
  });

  it('undo_edit of a large created file still deletes it, and the creation stays readable in the log', async () => {
    const text = sourceText(200_000);
    const env = await fx.startLlm({
      name: 'hostile-create-undo',
      turns: [
        {
          reply: {
            chunkSize: 65_536,
            toolCalls: [
              {
                id: 'call_new',
                name: 'file_editor',
                arguments: { command: 'create', path: 'x.ts', file_text: text },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Created' },
          reply: {
            toolCalls: [
              { id: 'call_undo', name: 'file_editor', arguments: { command: 'undo_edit', path: 'x.ts' } },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'Reverted the creation' },
          reply: { content: 'Undone.' },
        },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'create, then undo', '--confirm', 'never', '--store', store],
      {
        env,
        timeoutMs: 90_000,
      },
    );
    assert.equal(r.code, 0, printed(r).slice(0, 4000));
    assert.ok(!existsSync(join(ws, 'x.ts')), 'undo_edit deleted the created file');
    const events = await storedEvents(store);
    const [create, undo] = events.filter((e) => e.kind === 'ObservationEvent');
    const action = events.find((e) => e.kind === 'ActionEvent')!;
    assert.equal(observationNewContent(create!.observation as Json, action), text);
    const undone = undo!.observation as Json;
    assert.equal(undone.is_error, false);
    assert.equal(undone.old_content, text, 'the undo records what it removed, for the review');
  });
});
