// `logbook tasks --stop-all`, attacked: a task's lock files are plain files beside its log, so a
// task (or anything that writes there) can name any process of the user as its runner. Only a
// process verified as that task's `logbook run` is interrupted: here a finished task's `LOCK` and
// owner lock are forged to name another live process of this user (with its real start time, so
// the locks read as live), and that process must be left running and the task named as left.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { finishCall, makeRepo } from '../cli/worktree-fixtures';

function forgedLock(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const procStart = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return JSON.stringify({
    pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: 'forged',
    procStart,
  });
}

describe('hostile: logbook tasks --stop-all', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  let bystander: ChildProcess | undefined;
  afterEach(async () => {
    bystander?.kill('SIGKILL');
    await fx.cleanup();
  });

  it("interrupts no process that a task's forged locks name but that is not its logbook run", async () => {
    const base = fx.tmp('logbook-stop-forged-');
    const repo = makeRepo(join(base, 'repo'), { 'README.md': '# project\n' });
    const env = {
      ...(await fx.startLlm({ name: 'done-task', turns: [{ reply: { toolCalls: [finishCall()] } }] })),
      LOGBOOK_WORKTREES_DIR: join(base, 'data'),
    };
    const ran = await runCli(['run', '--worktree', 'done', 'Finish', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(ran.code, 0, printed(ran));
    const listed = await runCli(['tasks', '--json'], { cwd: repo, env });
    const log = (JSON.parse(listed.stdout) as { tasks: { log: string }[] }).tasks[0]!.log;
    // Another process of this user, run with "run" among its words as a logbook run would be.
    bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'run']);
    const pid = bystander.pid!;
    writeFileSync(join(log, 'LOCK'), forgedLock(pid));
    writeFileSync(join(dirname(log), `${basename(log)}.owner`), forgedLock(pid));

    const stop = await runCli(['tasks', '--stop-all'], { cwd: repo, env });
    assert.equal(stop.code, 0, printed(stop));
    assert.match(stop.stdout, /task done: left running: /);
    // A signal would have ended it by now (its exit is seen on this process's event loop).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(bystander.exitCode, null, 'the bystander was signalled');
    assert.equal(bystander.signalCode, null, 'the bystander was signalled');
  });
});
