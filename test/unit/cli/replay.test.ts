import * as assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from '../../support/llm-server';
import { printed, runCli } from './cli-runner';
import { CliFixture, readLogJson } from './fixtures';

const SCENARIO = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/scenarios/replay-two-tasks.json'), 'utf8'),
) as Scenario;
const SAMPLE = join(__dirname, '../../fixtures/workspace');

/**
 * Records the two tasks of the scenario with `logbook run` on a copy of the sample workspace;
 * `between` runs after the first task (what the user does by hand before the second).
 */
async function record(fx: CliFixture, opts: { between?: (ws: string) => void; flags?: string[] } = {}) {
  const env = await fx.startLlm(SCENARIO);
  const root = fx.tmp();
  const ws = join(root, 'ws');
  cpSync(SAMPLE, ws, { recursive: true });
  const conv = join(root, 'conv');
  const base = ['run', '--workspace', ws, '--confirm', 'never', '--store', conv, ...(opts.flags ?? [])];
  const first = await runCli([...base, '--task', 'first task: read math.js'], { env });
  assert.equal(first.code, 0, printed(first));
  opts.between?.(ws);
  const second = await runCli([...base, '--task', 'again: read it'], { env });
  assert.equal(second.code, 0, printed(second));
  // The replay needs no model: the scripted server is gone before it starts.
  await fx.llm?.close();
  fx.llm = undefined;
  return { ws, conv };
}

describe('logbook replay', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('replays a recorded conversation on a copy of its first checkpoint with no divergence', async () => {
    const { ws, conv } = await record(fx);
    const before = readFileSync(join(ws, 'notes.md'), 'utf8');
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 0, printed(r));
    assert.match(
      r.lines[0]!,
      /^replaying in .*logbook-replay-\S+ \(the workspace as checkpoint [0-9a-f]{12} holds it\)$/,
    );
    assert.equal(r.lines.at(-1), 'replayed 3 actions, no divergence');
    // The conversation's own workspace and log are left as they were.
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), before);
    assert.equal((await readLogJson(conv)).filter((e) => e.kind === 'ActionEvent').length, 3);
  });

  it('reports the first divergence at the action that read a file changed by hand, and exits 4', async () => {
    const { conv } = await record(fx, {
      between: (ws) => appendFileSync(join(ws, 'src', 'math.js'), '// changed by hand\n'),
    });
    const events = await readLogJson(conv);
    const secondRead = events.findIndex(
      (e) => e.kind === 'ObservationEvent' && e.tool_call_id === 'call_cat_2',
    );
    assert.ok(secondRead > 0);
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 4, printed(r));
    assert.match(
      r.stdout,
      new RegExp(`^divergence at event ${secondRead} \\(action 3 of 3\\): terminal: cat src/math\\.js$`, 'm'),
    );
    assert.match(r.stdout, /^ {2}recorded: .*\/\/ changed by hand/m);
    assert.match(r.stdout, /^ {4}- \/\/ changed by hand$/m);
    assert.doesNotMatch(r.stdout, /no divergence/);
  });

  it('--to replays only up to a point named as show --at names it (index, event id, checkpoint id)', async () => {
    // The second task diverges (the file changed by hand); a replay cut before it does not.
    const { conv } = await record(fx, {
      between: (ws) => appendFileSync(join(ws, 'src', 'math.js'), '// changed by hand\n'),
    });
    const events = await readLogJson(conv);
    const firstEnd = events.findIndex(
      (e) => e.kind === 'MessageEvent' && e.source === 'agent' && JSON.stringify(e).includes('Noted in'),
    );
    assert.ok(firstEnd > 0);
    const byIndex = await runCli(['replay', conv, '--to', `#${firstEnd}`]);
    assert.equal(byIndex.code, 0, printed(byIndex));
    assert.equal(byIndex.lines[0], `replaying up to event #${firstEnd} (${String(events[firstEnd]!.id)})`);
    assert.equal(byIndex.lines.at(-1), 'replayed 2 actions, no divergence');

    const byId = await runCli(['replay', conv, '--to', String(events[firstEnd]!.id).slice(0, 10)]);
    assert.equal(byId.code, 0, printed(byId));
    assert.equal(byId.lines.at(-1), 'replayed 2 actions, no divergence');

    // The checkpoint before the notes action: the replay stops before writing notes.md.
    const notes = events.findIndex(
      (e) => e.kind === 'ActionEvent' && JSON.stringify(e).includes('call_notes'),
    );
    const before = events
      .slice(0, notes)
      .findLast(
        (e) => e.kind === 'ConversationStateUpdateEvent' && (e.value as { checkpoint?: unknown })?.checkpoint,
      );
    assert.ok(before, 'a checkpoint before the notes action');
    const checkpoint = (before.value as { checkpoint: string }).checkpoint;
    const byCheckpoint = await runCli(['replay', conv, '--to', checkpoint.slice(0, 12), '--keep']);
    assert.equal(byCheckpoint.code, 0, printed(byCheckpoint));
    assert.equal(byCheckpoint.lines.at(-2), 'replayed 1 action, no divergence');
    const kept = /^kept (.+)$/.exec(byCheckpoint.lines.at(-1)!)?.[1];
    assert.ok(kept, printed(byCheckpoint));
    try {
      assert.ok(existsSync(join(kept, 'workspace', 'src', 'math.js')));
      assert.ok(!existsSync(join(kept, 'workspace', 'notes.md')), 'the action after the point did not run');
    } finally {
      rmSync(kept, { recursive: true, force: true });
    }

    // The whole replay still finds the divergence the cut left out.
    const whole = await runCli(['replay', conv]);
    assert.equal(whole.code, 4, printed(whole));
  });

  it('--to with a point the conversation does not have is an error that says so', async () => {
    const { conv } = await record(fx);
    const r = await runCli(['replay', conv, '--to', '#999']);
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /No event #999 in this conversation: its events are #0 to #\d+\./);
    assert.doesNotMatch(r.stdout, /replaying in/);
  });

  it('a conversation recorded without checkpoints is refused with a clear error', async () => {
    const { conv } = await record(fx, { flags: ['--no-checkpoints'] });
    const r = await runCli(['replay', conv]);
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /recorded no file checkpoint, so there is no workspace to replay it in/);
    assert.equal(r.stdout, '');
  });
});
