import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { openEventStore } from '../../../src/core/log';
import { loadScenarioFile } from '../../support/llm-server';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture, filesContaining, onlyConversationDir, SECRET_KEY, terminalCall } from './fixtures';

/** Create a file, show it in the terminal, finish (shared with the Conversation test). */
const multiStepFile = join(__dirname, '..', '..', 'fixtures', 'scenarios', 'create-show-finish.json');

/** Kinds without the state-sync updates, which interleave everywhere. */
const mainKinds = (events: Record<string, unknown>[]) =>
  events.map((e) => e.kind).filter((k) => k !== 'ConversationStateUpdateEvent');

describe('logbook run', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('--json: runs a multi-step task (edit, command, finish), prints each stored event, exits 0', async () => {
    const env = await fx.startLlm(await loadScenarioFile(multiStepFile));
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      [
        'run',
        '--workspace',
        ws,
        '--task',
        'Write a greeting to hello.txt',
        '--confirm',
        'never',
        '--store',
        store,
        '--json',
      ],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    assert.equal(readFileSync(join(ws, 'hello.txt'), 'utf8'), 'hello logbook\n');
    const events = jsonLines(r);
    assert.deepEqual(mainKinds(events), [
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
    ]);
    assert.deepEqual(
      events.filter((e) => e.kind === 'ActionEvent').map((e) => e.tool_name),
      ['file_editor', 'terminal', 'finish'],
    );
    // The conversation directory goes to stderr so stdout stays pure JSON.
    assert.match(r.stderr, new RegExp(`conversation: ${store}`));
    assert.match(r.stderr, /Finished/);
    // Each line is the event exactly as stored, in log order.
    const log = await openEventStore<StoredConversationEvent>(store, {
      codec: conversationEventCodec,
      readOnly: true,
    });
    const stored = (await log.slice()).map((e) =>
      conversationEventCodec.encode(e as StoredConversationEvent),
    );
    await log.close();
    assert.deepEqual(r.lines, stored);
    assert.equal(fx.llm!.remainingTurns(), 0);
  });

  it('prints one-line summaries by default, stores the conversation under the workspace, never the key', async () => {
    const env = await fx.startLlm({
      name: 'cli-human',
      turns: [
        { reply: { toolCalls: [terminalCall('call_echo', 'echo first line && echo second line')] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'second line' },
          reply: { content: 'Both lines printed.' },
        },
      ],
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'print two lines'], { env });
    assert.equal(r.code, 0, printed(r));
    const dir = onlyConversationDir(ws);
    assert.equal(r.lines[0], `conversation: ${dir}`);
    assert.ok(r.lines.includes('[user] print two lines'), printed(r));
    assert.ok(
      r.lines.includes('[agent] terminal: echo first line && echo second line (risk LOW)'),
      printed(r),
    );
    assert.ok(r.lines.includes('[env] exit 0: first line'), printed(r));
    assert.ok(r.lines.includes('[agent] Both lines printed.'), printed(r));
    assert.ok(!r.stdout.includes(SECRET_KEY) && !r.stderr.includes(SECRET_KEY));
    assert.deepEqual(filesContaining(ws, SECRET_KEY), []);
    // The key did reach the LLM, as a header only.
    assert.equal(fx.llm!.requests[0]!.headers.authorization, `Bearer ${SECRET_KEY}`);
    const session = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(session.workspace, ws);
    assert.equal(session.confirmation, 'risky');
  });

  it('exits 3 with a ConversationErrorEvent when the LLM keeps answering 500', async () => {
    // retry-after-ms keeps the client's retries (1 + 4) fast.
    const env = await fx.startLlm({
      name: 'cli-llm-down',
      turns: [{ fault: { status: 500, message: 'upstream exploded', retryAfterMs: 1 }, repeat: 5 }],
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'hello', '--json'], { env });
    assert.equal(r.code, 3, printed(r));
    const events = jsonLines(r);
    const error = events.find((e) => e.kind === 'ConversationErrorEvent');
    assert.ok(error, printed(r));
    assert.equal(error.code, 'llm_server_error');
    assert.equal(fx.llm!.completionBodies().length, 5);
    assert.match(r.stderr, /Stopped with an error/);
    assert.ok(!r.stderr.includes(SECRET_KEY));
  });

  it('exits 3 when the iteration limit is reached', async () => {
    const env = await fx.startLlm({
      name: 'cli-limit',
      turns: [],
      // No id: the server numbers the calls, so each reply's call is a new one.
      fallback: { toolCalls: [{ name: 'terminal', arguments: { command: 'ls', security_risk: 'LOW' } }] },
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'loop', '--max-iterations', '2'], { env });
    assert.equal(r.code, 3, printed(r));
    assert.ok(
      r.lines.some((l) => l.startsWith('[error] iteration_limit')),
      printed(r),
    );
  });

  it('Ctrl+C interrupts the agent: the log records the pause and the exit code is 130', async () => {
    const env = await fx.startLlm({
      name: 'cli-interrupt',
      turns: [{ reply: { content: 'This reply streams very slowly.', chunkSize: 1, delayMs: 200 } }],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(['run', '--workspace', ws, '--task', 'slow', '--store', store, '--json'], {
      env,
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (fx.llm!.completionBodies().length === 0) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 50);
        child.once('exit', () => clearInterval(poll));
      },
    });
    assert.equal(r.code, 130, printed(r));
    assert.match(r.stderr, /Interrupting/);
    const show = JSON.parse((await runCli(['show', store, '--json'])).stdout) as { status: string };
    assert.equal(show.status, 'paused');
  });
});
