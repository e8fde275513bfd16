// Review decisions, apply and discard recorded in the task's signed log, through the real CLI, real
// git and the scripted model: `logbook show TASK` prints each one, `verify` still checks the whole
// chain, and an OpenHands export of the log still validates against the SDK's schemas.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkSdkFolder } from '../../support/openhands-sdk-schema';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';
import { threeHunkTurns } from './worktree-fixtures';
import { finishedWorktreeTask } from './worktree-task-run';

describe('logbook review, apply and discard: decisions in the task log', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function finishedTask(name: string) {
    const turns = threeHunkTurns('line 2, edited\n', 'line 18, edited\n');
    return finishedWorktreeTask(fx, fx.tmp('logbook-decisions-'), name, `decisions-${name}`, turns);
  }

  it('records a rejected hunk, a rejected file, apply and discard; show prints them, verify passes', async () => {
    const { repo, env } = await finishedTask('rec');
    const listed = await runCli(['review', 'rec'], { cwd: repo, env });
    const digest = /digest ([0-9a-f]{12})/.exec(listed.stdout)?.[1] ?? '';
    const hunk = await runCli(['review', 'rec', '--reject', '2', '--digest', digest], { cwd: repo, env });
    assert.equal(hunk.code, 0, printed(hunk));
    const file = await runCli(['review', 'rec', '--reject-file', 'new.txt'], { cwd: repo, env });
    assert.equal(file.code, 0, printed(file));
    const applied = await runCli(['apply', 'rec'], { cwd: repo, env });
    assert.equal(applied.code, 0, printed(applied));
    const discarded = await runCli(['discard', 'rec'], { cwd: repo, env });
    assert.equal(discarded.code, 0, printed(discarded));

    const shown = await runCli(['show', 'rec'], { cwd: repo, env });
    assert.equal(shown.code, 0, printed(shown));
    assert.match(shown.stdout, /^task decisions:$/m);
    const lines = shown.stdout.split('\n').filter((l) => l.includes('[task]'));
    assert.equal(lines.length, 4, shown.stdout);
    assert.match(
      lines[0]!,
      /\[task\] You rejected a hunk of a\.txt @@ -15,6 \+15,6 @@.* at the terminal \(commit [0-9a-f]{10}\)/,
    );
    assert.match(
      lines[1]!,
      /\[task\] You rejected every change to new\.txt at the terminal \(commit [0-9a-f]{10}\)/,
    );
    assert.match(
      lines[2]!,
      /\[task\] You applied logbook\/rec at the terminal: 1 file\(s\) merged \(commit [0-9a-f]{10}\)/,
    );
    assert.match(lines[3]!, /\[task\] You discarded task rec at the terminal/);

    const json = await runCli(['show', 'rec', '--json'], { cwd: repo, env });
    const report = JSON.parse(json.stdout) as {
      task_decisions: { decision: string; via: string; path?: string }[];
    };
    assert.deepEqual(
      report.task_decisions.map((d) => [d.decision, d.via, d.path]),
      [
        ['reject_hunk', 'cli', 'a.txt'],
        ['reject_file', 'cli', 'new.txt'],
        ['apply', 'cli', undefined],
        ['discard', 'cli', undefined],
      ],
    );
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { log: string }[] }).tasks;
    const verified = await runCli(['verify', task!.log], { cwd: repo, env });
    assert.equal(verified.code, 0, printed(verified));
  });

  it('an OpenHands export of a log with decisions validates against the SDK schemas', async () => {
    const { repo, env, base } = await finishedTask('exp');
    const file = await runCli(['review', 'exp', '--reject-file', 'new.txt'], { cwd: repo, env });
    assert.equal(file.code, 0, printed(file));
    const out = join(base, 'export');
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { log: string }[] }).tasks;
    const ex = await runCli(['export-openhands', task!.log, out], { cwd: repo, env });
    assert.equal(ex.code, 0, printed(ex));
    const check = checkSdkFolder(out);
    assert.deepEqual(check.problems, []);
    const shown = await runCli(['show', 'exp'], { cwd: repo, env });
    assert.match(shown.stdout, /\[task\] You rejected every change to new\.txt at the terminal/);
  });
});
