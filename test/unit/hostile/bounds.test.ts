// A model that floods a step: one reply with a thousand tool calls, and a create of a file of
// several megabytes. The real CLI runs as a child process against the scripted model. Only the
// capped number of calls runs (the rest are answered with an error, so the next request stays
// valid), a flood never turns into a flood of confirmations, and a created file's text is stored
// once, with review and undo still able to read it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { isCorruptRecord, openEventStore } from '../../../src/core/log';
import { jsonLines, printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';

type Json = Record<string, unknown>;

const FLOOD = 1000;
const DEFAULT_CAP = 32;

function createCall(i: number, risk: 'LOW' | 'MEDIUM' = 'LOW') {
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
    assert.equal(events.filter((e) => e.kind === 'ActionEvent').length, DEFAULT_CAP);
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
            toolCalls: Array.from({ length: FLOOD }, (_, i) => createCall(i, 'MEDIUM')),
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
});
