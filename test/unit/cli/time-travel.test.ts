import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson, terminalCall } from './fixtures';

const NOTES = '# Notes\nfirst line\n';

/** A conversation that creates notes.md, appends to it, then finishes; returns its folder and events. */
async function recordConversation(fx: CliFixture) {
  const env = await fx.startLlm({
    name: 'time-travel',
    turns: [
      {
        reply: {
          toolCalls: [
            {
              id: 'call_create',
              name: 'file_editor',
              arguments: {
                command: 'create',
                path: 'notes.md',
                file_text: NOTES,
                security_risk: 'LOW',
                summary: 'notes',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' as const },
        reply: { toolCalls: [terminalCall('call_append', 'echo second line >> notes.md')] },
      },
      {
        match: { lastRole: 'tool' as const },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  });
  const root = fx.tmp();
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'readme.txt'), 'hello\n');
  const conv = join(root, 'conv');
  const run = await runCli(
    ['run', '--workspace', ws, '--task', 'go', '--confirm', 'never', '--store', conv],
    {
      env,
    },
  );
  assert.equal(run.code, 0, printed(run));
  const events = await readLogJson(conv);
  const actionOf = (callId: string) => {
    const e = events.find((x) => x.kind === 'ActionEvent' && x.tool_call_id === callId);
    assert.ok(e, `action ${callId} recorded`);
    return e.id as string;
  };
  return { conv, ws, events, create: actionOf('call_create'), append: actionOf('call_append') };
}

describe('logbook show --at / logbook diff', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('show --at prints the state right after an event, by id prefix, as it was then', async () => {
    const { conv, events, append } = await recordConversation(fx);
    const at = await runCli(['show', conv, '--at', append.slice(0, 10), '--json']);
    assert.equal(at.code, 0, printed(at));
    const then = JSON.parse(at.stdout) as {
      status: string;
      event_count: number;
      pending_actions: { id: string; tool: string }[];
      metrics: { total: { calls: number } };
      at: { index: number; id: string };
    };
    const index = events.findIndex((e) => e.id === append);
    assert.deepEqual(then.at.id, append);
    assert.equal(then.at.index, index);
    assert.equal(then.event_count, index + 1);
    assert.equal(then.status, 'running');
    assert.deepEqual(
      then.pending_actions.map((p) => [p.id, p.tool]),
      [[append, 'terminal']],
      'the action not yet run is pending at that point',
    );
    assert.equal(then.metrics.total.calls, 2, 'two model replies so far');

    const now = JSON.parse((await runCli(['show', conv, '--json'])).stdout) as typeof then;
    assert.equal(now.status, 'finished');
    assert.equal(now.pending_actions.length, 0);
    assert.equal(now.metrics.total.calls, 3);

    const text = await runCli(['show', conv, '--at', append]);
    assert.equal(text.code, 0, printed(text));
    assert.match(text.stdout, new RegExp(`at event   ${index} \\(${append}`));
    assert.match(text.stdout, /status {5}running/);
    assert.match(text.stdout, new RegExp(`pending actions:\\n  ${append}  terminal: echo second line`));
  });

  it('show --at refuses an unknown id and an ambiguous prefix, naming what it fits', async () => {
    const { conv } = await recordConversation(fx);
    const unknown = await runCli(['show', conv, '--at', 'zzzz-not-an-id']);
    assert.equal(unknown.code, 1, printed(unknown));
    assert.match(unknown.stderr, /No event or checkpoint "zzzz-not-an-id"/);
    // Every event id is a UUID: the empty prefix is refused as empty, a one-hex-digit one is ambiguous.
    let ambiguous;
    for (const digit of '0123456789abcdef') {
      ambiguous = await runCli(['show', conv, '--at', digit]);
      if (/fits \d+ ids/.test(ambiguous.stderr)) break;
    }
    assert.equal(ambiguous!.code, 1, printed(ambiguous!));
    assert.match(ambiguous!.stderr, /fits \d+ ids of this conversation: .*Give more of the id\./);
  });

  it('diff prints the workspace changes between two points as a unified diff; --stat names the files', async () => {
    const { conv, events, create, append } = await recordConversation(fx);
    const last = events.at(-1)!.id as string;
    const whole = await runCli(['diff', conv, '--from', create, '--to', last]);
    assert.equal(whole.code, 0, printed(whole));
    assert.match(
      whole.stdout,
      /diff from event \d+ \(checkpoint [0-9a-f]{12}\) to event \d+ .*: 1 file changed/,
    );
    assert.match(whole.stdout, /^diff --git a\/notes\.md b\/notes\.md$/m);
    assert.match(whole.stdout, /^new file mode 100644$/m);
    assert.match(whole.stdout, /^\+first line\n\+second line$/m);
    assert.doesNotMatch(whole.stdout, /readme\.txt/, 'an unchanged file is not in the diff');

    // Between the two actions: only what the first one did.
    const step = await runCli(['diff', conv, '--from', create.slice(0, 8), '--to', append.slice(0, 8)]);
    assert.equal(step.code, 0, printed(step));
    assert.match(step.stdout, /^\+first line$/m);
    assert.doesNotMatch(step.stdout, /second line/);

    const stat = await runCli(['diff', conv, '--from', create, '--to', last, '--stat']);
    assert.equal(stat.code, 0, printed(stat));
    assert.deepEqual(stat.lines.slice(1), ['  A notes.md']);

    const backwards = await runCli(['diff', conv, '--from', last, '--to', create, '--stat']);
    assert.deepEqual(backwards.lines.slice(1), ['  D notes.md']);

    const missing = await runCli(['diff', conv, '--from', create]);
    assert.equal(missing.code, 1, printed(missing));
    assert.match(missing.stderr, /--from ID and --to ID are both required/);
  });
});
