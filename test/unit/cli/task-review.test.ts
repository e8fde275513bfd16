// `logbook review TASK` through the real CLI, real git and the scripted model: the task's change
// listed as numbered hunks with a digest; one hunk of two in a file rejected (a commit of its own
// on the task's branch); apply then brings exactly the accepted hunk; a number from a listing the
// task has changed since is refused, nothing taken back; a file by name, never by pattern.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIo } from '../../../src/host/node/cli/io';
import { main } from '../../../src/host/node/cli/main';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';
import { gitIn, threeHunkTurns, TWENTY_LINES } from './worktree-fixtures';
import { finishedWorktreeTask } from './worktree-task-run';

describe('logbook review: a worktree task per hunk', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function finishedTask() {
    const turns = threeHunkTurns('line 2, first edit\n', 'line 18, second edit\n', true);
    return finishedWorktreeTask(fx, fx.tmp('logbook-review-'), 'two', 'two-hunks', turns);
  }

  const digestOf = (stdout: string) => /digest ([0-9a-f]{12})/.exec(stdout)?.[1] ?? '';

  it('lists numbered hunks; rejects one of two in a file as a commit on the branch; apply brings the rest', async () => {
    const { repo, env } = await finishedTask();
    const listed = await runCli(['review', 'two'], { cwd: repo, env });
    assert.equal(listed.code, 0, printed(listed));
    assert.match(listed.stdout, /task two: 3 hunk\(s\) in 2 file\(s\) against its base; digest [0-9a-f]{12}/);
    assert.match(listed.stdout, /^a\.txt$/m);
    assert.match(listed.stdout, /^ {2}hunk 1 {2}@@ -1,5 \+1,5 @@/m);
    assert.match(listed.stdout, /^ {4}\+line 2, first edit$/m);
    assert.match(listed.stdout, /^ {2}hunk 2 {2}@@ -15,6 \+15,6 @@/m);
    assert.match(listed.stdout, /^ {2}hunk 3 {2}@@ -0,0 \+1 @@/m);
    assert.doesNotMatch(listed.stdout, /\x1b\[/, 'colour without a terminal');
    const digest = digestOf(listed.stdout);

    const rejected = await runCli(['review', 'two', '--reject', '2', '--digest', digest], { cwd: repo, env });
    assert.equal(rejected.code, 0, printed(rejected));
    assert.match(rejected.stdout, /rejected hunk 2 of a\.txt \(commit [0-9a-f]{10} on logbook\/two\)/);
    const log = gitIn(repo, 'log', '--format=%s%n%b', '-1', 'logbook/two');
    assert.match(log, /^Logbook review of task two: reject a hunk of a\.txt$/m);
    assert.match(log, /Rejected in logbook review of logbook\/two/);

    const applied = await runCli(['apply', 'two'], { cwd: repo, env });
    assert.equal(applied.code, 0, printed(applied));
    assert.equal(
      readFileSync(join(repo, 'a.txt'), 'utf8'),
      TWENTY_LINES.replace('line 2\n', 'line 2, first edit\n'),
    );
    assert.equal(readFileSync(join(repo, 'new.txt'), 'utf8'), 'new file\n');
  });

  it('refuses a number from a listing the task changed since, and a file not literally the task’s', async () => {
    const { repo, env } = await finishedTask();
    const listed = await runCli(['review', 'two'], { cwd: repo, env });
    const digest = digestOf(listed.stdout);
    const worktree = gitIn(repo, 'worktree', 'list', '--porcelain')
      .split('\n')
      .find((l) => l.startsWith('worktree ') && l.includes('two'))!
      .slice('worktree '.length);
    // The task's file changes after the listing: hunk 2 would now be another change.
    writeFileSync(join(worktree, 'a.txt'), 'line 0\n' + readFileSync(join(worktree, 'a.txt'), 'utf8'));
    const stale = await runCli(['review', 'two', '--reject', '2', '--digest', digest], { cwd: repo, env });
    assert.equal(stale.code, 1, printed(stale));
    assert.match(stale.stderr, /changed since that listing .*nothing was taken back/);
    assert.doesNotMatch(gitIn(repo, 'log', '--format=%s', 'logbook/two'), /reject/);

    const missing = await runCli(['review', 'two', '--reject', '2'], { cwd: repo, env });
    assert.equal(missing.code, 1, printed(missing));
    assert.match(missing.stderr, /--reject needs --digest/);

    const pattern = await runCli(['review', 'two', '--reject-file', '*.txt'], { cwd: repo, env });
    assert.equal(pattern.code, 1, printed(pattern));
    assert.match(pattern.stderr, /"\*\.txt" is not one of the files task two changed/);

    const whole = await runCli(['review', 'two', '--reject-file', 'new.txt'], { cwd: repo, env });
    assert.equal(whole.code, 0, printed(whole));
    assert.match(whole.stdout, /rejected every change to new\.txt/);
    assert.match(gitIn(repo, 'log', '--format=%s', '-1', 'logbook/two'), /reject every change to new\.txt/);
  });

  it('takes several hunks back in one run, a commit each; colours only on a terminal', async () => {
    const { repo, env } = await finishedTask();
    // In this process, as a terminal that shows colour: added and removed lines in colour.
    let raw = '';
    const io: CliIo = {
      out: (l) => void (raw += l + '\n'),
      err: (l) => void (raw += l + '\n'),
      env: { ...process.env, ...env },
      cwd: repo,
      onInterrupt: () => () => undefined,
      colour: true,
      outRaw: (t) => void (raw += t),
    };
    assert.equal(await main(['review', 'two'], io), 0, raw);
    assert.match(raw, /\x1b\[32m {4}\+line 2, first edit\x1b\[0m/);
    assert.match(raw, /\x1b\[31m {4}-line 2\x1b\[0m/);
    const digest = digestOf(raw);

    const r = await runCli(['review', 'two', '--reject', '1,2', '--digest', digest], { cwd: repo, env });
    assert.equal(r.code, 0, printed(r));
    const subjects = gitIn(repo, 'log', '--format=%s', '-2', 'logbook/two').trim().split('\n');
    assert.deepEqual(subjects, [
      'Logbook review of task two: reject a hunk of a.txt',
      'Logbook review of task two: reject a hunk of a.txt',
    ]);
    assert.equal(gitIn(repo, 'show', 'logbook/two:a.txt'), TWENTY_LINES);
    const left = await runCli(['review', 'two'], { cwd: repo, env });
    assert.match(left.stdout, /task two: 1 hunk\(s\) in 1 file\(s\)/);
  });
});
