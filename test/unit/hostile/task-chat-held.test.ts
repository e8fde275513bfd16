// A worktree task's conversation an editor window holds open: `logbook apply` and `discard` go on
// between two of its steps, and never while a step runs or while a `logbook run` writes the log.
// The window is played by this process, with the same locks the window takes (its writer lock, and
// the guard a task's session holds); the CLI is the real one. The repository lies outside /tmp.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, type HeldLock } from '../../../src/core/log';
import { TaskStepGuard } from '../../../src/host/node/worktrees/task-steps';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { createCall, finishCall, makeRepo, treeHashes } from '../cli/worktree-fixtures';

describe('hostile: a task held open in a window, as apply and discard see it', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  const held: { release(): void }[] = [];
  afterEach(() => {
    for (const h of held.splice(0)) h.release();
    fx.cleanup();
  });

  /** A finished task `name` that created one file in its worktree; its log and worktree. */
  async function finishedTask(name: string) {
    const base = outsideFolder('task-held-');
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    const env = {
      ...(await fx.startLlm({
        name: `held-${name}`,
        turns: [
          { reply: { toolCalls: [createCall('call_new', 'added.txt', 'by the task\n')] } },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const r = await runCli(['run', '--worktree', name, 'Add a file', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { worktree: string; log: string }[] }).tasks;
    return { repo, env, log: task!.log, worktree: task!.worktree };
  }

  /** This process holds the log as a window holding the conversation open does. */
  function holdOpen(log: string): TaskStepGuard {
    const writer = acquireLock(log, undefined, 'an editor window');
    assert.ok(writer.acquired, 'the log is locked already');
    held.push(writer.lock);
    const guard = new TaskStepGuard(log, 'an editor window');
    guard.hold();
    held.push({ release: () => guard.dispose() });
    return guard;
  }

  it('applies a task whose conversation is held open between steps', async () => {
    const t = await finishedTask('idle');
    holdOpen(t.log);
    const r = await runCli(['apply', 'idle'], { cwd: t.repo, env: t.env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(existsSync(join(t.repo, 'added.txt')), 'the change was not applied');
  });

  it('discards a task whose conversation is held open between steps; its log is kept', async () => {
    const t = await finishedTask('idle-discard');
    holdOpen(t.log);
    const r = await runCli(['discard', 'idle-discard'], { cwd: t.repo, env: t.env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(!existsSync(t.worktree), 'the worktree is still there');
    assert.ok(existsSync(t.log), 'the log went');
  });

  it('refuses apply and discard while a step runs: the main tree byte-identical, the worktree kept', async () => {
    const t = await finishedTask('busy');
    const step: HeldLock | undefined = holdOpen(t.log).step();
    assert.ok(step, 'no step could start');
    held.push(step);
    const before = treeHashes(t.repo);
    for (const verb of ['apply', 'discard']) {
      const r = await runCli([verb, 'busy'], { cwd: t.repo, env: t.env });
      assert.notEqual(r.code, 0, printed(r));
      assert.match(r.stderr, /task busy is running/);
    }
    assert.deepEqual(treeHashes(t.repo), before, 'the main tree changed under a running step');
    assert.ok(existsSync(t.worktree), 'the worktree went under a running step');
  });

  it('refuses while a writer that takes no step lock holds the log (a logbook run), and a step cannot start under apply', async () => {
    const t = await finishedTask('cli-run');
    const writer = acquireLock(t.log, undefined, 'logbook run');
    assert.ok(writer.acquired);
    held.push(writer.lock);
    const before = treeHashes(t.repo);
    const r = await runCli(['apply', 'cli-run'], { cwd: t.repo, env: t.env });
    assert.notEqual(r.code, 0, printed(r));
    assert.match(r.stderr, /task cli-run is running/);
    assert.deepEqual(treeHashes(t.repo), before);
    // While apply holds STEP, the window's next step does not start.
    const applying = acquireLock(t.log, 'STEP', 'logbook apply');
    assert.ok(applying.acquired);
    held.push(applying.lock);
    assert.equal(new TaskStepGuard(t.log, 'an editor window').step(), undefined);
  });
});
