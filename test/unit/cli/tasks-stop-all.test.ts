// `logbook tasks --stop-all` through the real CLI, git and the scripted model: a task's `logbook
// run --worktree` held mid model call is interrupted as Ctrl+C in its terminal would (exit 130, its
// log paused, its process gone); with nothing running it says so.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';
import { finishCall, makeRepo } from './worktree-fixtures';
import { untilValue } from '../../support/poll';

describe('logbook tasks --stop-all', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function setUp() {
    const base = fx.tmp('logbook-stop-all-');
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    const env = {
      ...(await fx.startLlm({
        name: 'held-task',
        // Never released: only an interrupt ends this call.
        turns: [{ reply: { holdUntilReleased: 'never', toolCalls: [finishCall()] } }],
      })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    return { repo, env };
  }

  const statusOf = async (repo: string, env: Record<string, string>, name: string) => {
    const r = await runCli(['tasks', '--json'], { cwd: repo, env });
    const tasks = (JSON.parse(r.stdout) as { tasks: { name: string; status: string }[] }).tasks;
    return tasks.find((t) => t.name === name)?.status;
  };

  it("interrupts a running task's CLI process as Ctrl+C would; its log records the pause", async () => {
    const { repo, env } = await setUp();
    let child: ChildProcess | undefined;
    const run = runCli(['run', '--worktree', 'held', 'Wait for the model', '--confirm', 'never'], {
      cwd: repo,
      env,
      onSpawn: (c) => (child = c),
    });
    await untilValue(
      'the task to run',
      async () => ((await statusOf(repo, env, 'held')) === 'running' ? true : undefined),
      30_000,
      200,
    );
    const stop = await runCli(['tasks', '--stop-all'], { cwd: repo, env });
    assert.equal(stop.code, 0, printed(stop));
    assert.match(stop.stdout, new RegExp(`task held: stopped \\(process ${child!.pid} interrupted`));
    const ran = await run;
    assert.equal(ran.code, 130, printed(ran));
    assert.equal(await statusOf(repo, env, 'held'), 'waiting');
    const shown = await runCli(['show', 'held', '--json'], { cwd: repo, env });
    assert.equal((JSON.parse(shown.stdout) as { status: string }).status, 'paused', printed(shown));
  });

  it('says so when no task runs', async () => {
    const { repo, env } = await setUp();
    const stop = await runCli(['tasks', '--stop-all'], { cwd: repo, env });
    assert.equal(stop.code, 0, printed(stop));
    assert.deepEqual(stop.lines, ['No task is running.']);
  });
});
