// Accepting a worktree task's hunks or files at the terminal: nothing changes on the branch, and the
// task's signed log records what the user reviewed and accepted, on which commit. `logbook show`
// prints it, `verify` checks it, and an OpenHands export still validates against the SDK's schemas.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkSdkFolder } from '../../support/openhands-sdk-schema';
import { printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';
import { gitIn, threeHunkTurns } from './worktree-fixtures';
import { finishedWorktreeTask } from './worktree-task-run';

describe('logbook review --accept: acceptances recorded in the task log', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  async function finishedTask(name: string) {
    const base = fx.tmp('logbook-accept-');
    const turns = threeHunkTurns('line 2, edited\n', 'line 18, edited\n');
    const { repo, env } = await finishedWorktreeTask(fx, base, name, `accept-${name}`, turns);
    const listed = await runCli(['review', name], { cwd: repo, env });
    assert.equal(listed.code, 0, printed(listed));
    const digest = /digest ([0-9a-f]{12})/.exec(listed.stdout)?.[1] ?? '';
    const list = await runCli(['tasks', '--json'], { cwd: repo, env });
    const [task] = (JSON.parse(list.stdout) as { tasks: { log: string; worktree: string }[] }).tasks;
    return { repo, env, base, digest, task: task! };
  }

  it('records an accepted hunk and file; the branch is unchanged; show, --json and verify agree', async () => {
    const { repo, env, digest, task } = await finishedTask('acc');
    const head = gitIn(repo, 'rev-parse', 'logbook/acc').trim();
    const hunk = await runCli(['review', 'acc', '--accept', '1', '--digest', digest], { cwd: repo, env });
    assert.equal(hunk.code, 0, printed(hunk));
    assert.match(hunk.stdout, /accepted hunk 1 of a\.txt as on [0-9a-f]{10} \(recorded in its log\)/);
    const file = await runCli(['review', 'acc', '--accept-file', 'new.txt'], { cwd: repo, env });
    assert.equal(file.code, 0, printed(file));
    assert.equal(gitIn(repo, 'rev-parse', 'logbook/acc').trim(), head, 'an acceptance commits nothing');
    assert.equal(gitIn(task.worktree, 'status', '--porcelain'), '');

    const shown = await runCli(['show', 'acc'], { cwd: repo, env });
    assert.equal(shown.code, 0, printed(shown));
    const lines = shown.stdout.split('\n').filter((l) => l.includes('[task]'));
    assert.deepEqual(lines.length, 2, shown.stdout);
    assert.match(
      lines[0]!,
      new RegExp(
        `\\[task\\] You accepted a hunk of a\\.txt @@ -1,5 \\+1,5 @@ at the terminal \\(as on commit ${head.slice(0, 10)}\\)`,
      ),
    );
    assert.match(
      lines[1]!,
      new RegExp(
        `\\[task\\] You accepted every change to new\\.txt at the terminal \\(as on commit ${head.slice(0, 10)}\\)`,
      ),
    );
    const json = await runCli(['show', 'acc', '--json'], { cwd: repo, env });
    const report = JSON.parse(json.stdout) as {
      task_decisions: { decision: string; via: string; path?: string; commit?: string }[];
    };
    assert.deepEqual(
      report.task_decisions.map((d) => [d.decision, d.via, d.path, d.commit]),
      [
        ['accept_hunk', 'cli', 'a.txt', head],
        ['accept_file', 'cli', 'new.txt', head],
      ],
    );
    const verified = await runCli(['verify', task.log], { cwd: repo, env });
    assert.equal(verified.code, 0, printed(verified));
  });

  it('records nothing on a stale listing, refuses mixed decisions and unknown files', async () => {
    const { repo, env, task } = await finishedTask('stale');
    const stale = await runCli(['review', 'stale', '--accept', '1', '--digest', '000000000000'], {
      cwd: repo,
      env,
    });
    assert.notEqual(stale.code, 0);
    assert.match(stale.stderr, /changed since that listing.*nothing was recorded/);
    const mixed = await runCli(['review', 'stale', '--accept', '1', '--reject-file', 'new.txt'], {
      cwd: repo,
      env,
    });
    assert.notEqual(mixed.code, 0);
    assert.match(mixed.stderr, /--reject-file and --accept go in separate runs|--accept and --reject-file/);
    const stranger = await runCli(['review', 'stale', '--accept-file', '*.txt'], { cwd: repo, env });
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /is not one of the files task stale changed/);
    const shown = await runCli(['show', 'stale', '--json'], { cwd: repo, env });
    assert.equal((JSON.parse(shown.stdout) as { task_decisions?: unknown[] }).task_decisions?.length ?? 0, 0);
    const verified = await runCli(['verify', task.log], { cwd: repo, env });
    assert.equal(verified.code, 0, printed(verified));
  });

  it('an OpenHands export of a log with acceptances validates against the SDK schemas', async () => {
    const { repo, env, base, task, digest } = await finishedTask('exp');
    const hunk = await runCli(['review', 'exp', '--accept', '2', '--digest', digest], { cwd: repo, env });
    assert.equal(hunk.code, 0, printed(hunk));
    const out = join(base, 'export');
    const ex = await runCli(['export-openhands', task.log, out], { cwd: repo, env });
    assert.equal(ex.code, 0, printed(ex));
    assert.deepEqual(checkSdkFolder(out).problems, []);
  });
});
