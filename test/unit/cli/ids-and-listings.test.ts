// Ids as the CLI prints them are ids it takes (restore --at: an event id, a checkpoint id, a unique
// prefix of either), and its listings say what happened in words.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveEventRef } from '../../../src/core/checkpoints/timeline';
import type { Event } from '../../../src/core/events';
import { printed, runCli } from './cli-runner';
import { CliFixture, terminalCall } from './fixtures';

function fileCall(id: string, path: string, text: string) {
  return {
    id,
    name: 'file_editor',
    arguments: { command: 'create', path, file_text: text, security_risk: 'LOW', summary: `write ${path}` },
  };
}

describe('logbook checkpoints and restore: ids and words', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function twoSteps(): Promise<{ ws: string; store: string }> {
    const env = await fx.startLlm({
      name: 'two-checkpoints',
      turns: [
        { reply: { toolCalls: [fileCall('call_a', 'a.txt', 'first\n')] } },
        {
          match: { lastRole: 'tool' },
          reply: { toolCalls: [terminalCall('call_b', 'echo second > b.txt')] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'done' } },
      ],
    });
    const ws = fx.tmp();
    const store = join(fx.tmp(), 'conv');
    const r = await runCli(
      ['run', '--workspace', ws, '--task', 'go', '--confirmation-mode', 'never', '--store', store],
      { env },
    );
    assert.equal(r.code, 0, printed(r));
    return { ws, store };
  }

  it('checkpoints names the action before each checkpoint, and its checkpoint id', async () => {
    const { store } = await twoSteps();
    const r = await runCli(['checkpoints', store]);
    assert.equal(r.code, 0, printed(r));
    // Rows (indented lines under a row name the files its action left).
    const rows = r.lines.filter((l) => !l.startsWith(' ')).slice(1, 3);
    assert.match(r.lines[0]!, /checkpoint +time/);
    assert.match(rows[0]!, / [0-9a-f]{12} .*file_editor: create a\.txt$/, printed(r));
    assert.match(rows[1]!, / [0-9a-f]{12} .*terminal: echo second > b\.txt$/, printed(r));
    const json = JSON.parse((await runCli(['checkpoints', store, '--json'])).stdout) as {
      action: { tool: string; what: string } | null;
    }[];
    assert.deepEqual(
      json.map((c) => c.action),
      [
        { tool: 'file_editor', what: 'create a.txt' },
        { tool: 'terminal', what: 'echo second > b.txt' },
      ],
    );
  });

  it('restore --at takes the checkpoint id the [checkpoint] line prints, and a prefix of an event id', async () => {
    const { ws, store } = await twoSteps();
    const list = JSON.parse((await runCli(['checkpoints', store, '--json'])).stdout) as {
      id: string;
      checkpoint: string;
    }[];
    // The second checkpoint (before b.txt) by the 12 characters the run printed.
    const r = await runCli(['restore', store, '--at', list[1]!.checkpoint.slice(0, 12), '--yes']);
    assert.equal(r.code, 0, printed(r));
    assert.equal(existsSync(join(ws, 'b.txt')), false);
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'first\n');
    // The first checkpoint's event by a prefix of its id.
    const back = await runCli(['restore', store, '--at', list[0]!.id.slice(0, 8), '--yes']);
    assert.equal(back.code, 0, printed(back));
    assert.equal(existsSync(join(ws, 'a.txt')), false);
  });

  it('restore --at refuses an unknown prefix and says so', async () => {
    const { store } = await twoSteps();
    const r = await runCli(['restore', store, '--at', 'zzzz', '--yes']);
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /No event or checkpoint "zzzz" in this conversation/);
  });

  it('export-openhands says which records it left out when its count is not show’s', async () => {
    const { store } = await twoSteps();
    const show = JSON.parse((await runCli(['show', store, '--json'])).stdout) as { event_count: number };
    const r = await runCli(['export-openhands', store, join(fx.tmp(), 'oh')]);
    assert.equal(r.code, 0, printed(r));
    const m = /^Exported (\d+) events to .* \(the log holds (\d+), as logbook show counts them\)$/.exec(
      r.lines[0]!,
    );
    assert.ok(m, printed(r));
    assert.equal(Number(m[2]), show.event_count);
    const left =
      /left out (\d+) workspace checkpoint records \((\d+) checkpoint, (\d+) checkpoint_after\)/.exec(
        r.stdout,
      );
    assert.ok(left, printed(r));
    assert.equal(Number(m[1]) + Number(left[1]), show.event_count);
    assert.equal(Number(left[2]), 2);
  });
});

describe('resolveEventRef', () => {
  const event = (id: string, checkpoint?: string) =>
    (checkpoint
      ? {
          kind: 'ConversationStateUpdateEvent',
          id,
          key: 'checkpoint',
          value: { checkpoint, files_changed: 0 },
        }
      : { kind: 'MessageEvent', id }) as unknown as Event;
  const events = [
    event('aa11-0000'),
    event('aa22-0000', 'f1c0686c874f0000'),
    event('bb33-0000', 'f1c0aaaa00000000'),
  ];

  it('takes an id, a unique prefix of an event id or a checkpoint id', () => {
    assert.deepEqual(resolveEventRef(events, 'aa11-0000'), { eventId: 'aa11-0000' });
    assert.deepEqual(resolveEventRef(events, 'AA2'), { eventId: 'aa22-0000' });
    assert.deepEqual(resolveEventRef(events, 'f1c0686c874f'), { eventId: 'aa22-0000' });
  });

  it('names every fit of an ambiguous prefix, and knows an unknown one', () => {
    const r = resolveEventRef(events, 'f1c0');
    assert.ok('problem' in r && r.problem === 'ambiguous');
    assert.equal(r.candidates.length, 2);
    assert.deepEqual(resolveEventRef(events, 'aa'), {
      problem: 'ambiguous',
      candidates: ['event aa11-0000', 'event aa22-0000'],
    });
    assert.deepEqual(resolveEventRef(events, 'cc'), { problem: 'unknown' });
    assert.deepEqual(resolveEventRef(events, ' '), { problem: 'unknown' });
  });
});
