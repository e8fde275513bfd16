import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { filesAtPoint } from '../../../src/core/checkpoints/timeline';
import { openReadOnly, readEvents } from '../../../src/host/node/cli/conversation-dir';
import { filesAtIndex } from '../../../src/host/node/time-travel/files-at-index';
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
  return {
    conv,
    ws,
    events,
    printedLines: run.lines,
    create: actionOf('call_create'),
    append: actionOf('call_append'),
  };
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

  it('diff takes the indexes it prints (#N, or a bare number, said to be read as an index)', async () => {
    const { conv, events, create } = await recordConversation(fx);
    const from = events.findIndex((e) => e.id === create);
    const last = events.length - 1;
    const byId = await runCli(['diff', conv, '--from', create, '--to', events[last]!.id as string, '--stat']);
    assert.equal(byId.code, 0, printed(byId));
    assert.match(byId.lines[0]!, new RegExp(`^diff from event ${from} .* to event ${last} `));

    const marked = await runCli(['diff', conv, '--from', `#${from}`, '--to', `#${last}`, '--stat']);
    assert.equal(marked.code, 0, printed(marked));
    assert.deepEqual(marked.lines, byId.lines);
    assert.equal(marked.stderr, '');

    // What the first line printed is taken back as it is.
    const bare = await runCli(['diff', conv, '--from', String(from), '--to', String(last), '--stat']);
    assert.equal(bare.code, 0, printed(bare));
    assert.deepEqual(bare.lines, byId.lines);
    assert.match(bare.stderr, new RegExp(`"${from}" read as event index ${from} \\(#${from}\\)`));

    const outside = await runCli(['diff', conv, '--from', `#${last + 1}`, '--to', `#${last}`]);
    assert.equal(outside.code, 1, printed(outside));
    assert.match(
      outside.stderr,
      new RegExp(`No event #${last + 1} in this conversation: its events are #0 to #${last}\\.`),
    );
  });

  it('the after-action checkpoint ids the run prints are listed by checkpoints and taken by diff', async () => {
    const { conv, printedLines, create } = await recordConversation(fx);
    const afterIds = printedLines
      .map((l) => /\[checkpoint\] ([0-9a-f]{12}): after the action/.exec(l)?.[1])
      .filter((id): id is string => id !== undefined);
    assert.ok(afterIds.length >= 1, printedLines.join('\n'));

    const list = await runCli(['checkpoints', conv]);
    assert.equal(list.code, 0, printed(list));
    for (const id of afterIds)
      assert.match(list.stdout, new RegExp(`after it: checkpoint ${id} \\(event \\d+, `));
    const json = JSON.parse((await runCli(['checkpoints', conv, '--json'])).stdout) as {
      after: { checkpoint: string } | null;
    }[];
    assert.deepEqual(
      json.map((c) => c.after?.checkpoint.slice(0, 12)).filter((id) => id !== undefined),
      afterIds,
    );

    // The files the first action left: notes.md as it created it, nothing of the second action.
    const diff = await runCli(['diff', conv, '--from', create, '--to', afterIds[0]!]);
    assert.equal(diff.code, 0, printed(diff));
    assert.match(diff.stdout, new RegExp(`to event \\d+ \\(checkpoint ${afterIds[0]}\\): 1 file changed`));
    assert.match(diff.stdout, /^\+first line$/m);
    assert.doesNotMatch(diff.stdout, /second line/);
  });

  it('diff reads each point forward from its event, with what a read of the whole log gives', async () => {
    const { conv } = await recordConversation(fx);
    const log = await openReadOnly(conv);
    try {
      const { events } = await readEvents(log);
      assert.ok(events.length > 10);
      for (let i = 0; i < events.length; i++) {
        const id = events[i]!.id;
        assert.deepEqual(await filesAtIndex(log, i, id), filesAtPoint(events, id), `event ${i}`);
      }
    } finally {
      await log.close();
    }
  });
});
