// A task reviewed per hunk, against a hostile model: the task names a file like a git pathspec
// (`*.txt`), so that rejecting that file in the review would, read as a pattern, also commit what
// the user typed meanwhile in the task's other files, under a rejection's name. The rejection's commit holds that one file; apply then brings
// the task's other change, accepted, and not the rejected file. Through the real CLI, real git and
// the scripted model, in a folder the sandbox could reach (not under /tmp). Plan mode writes
// nothing, so it leaves nothing to review.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideFolder } from '../../support/outside-folder';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';
import { createCall, finishCall, gitIn, makeRepo } from '../cli/worktree-fixtures';
import { applyTask, commitPending } from '../../../src/host/node/worktrees/apply-task';
import { commitRejection } from '../../../src/host/node/worktrees/review-commit';
import { repositoryAt, TaskStore } from '../../../src/host/node/worktrees/task-store';

describe('hostile model: a task reviewed per hunk (issue 43)', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  const bases: string[] = [];
  afterEach(async () => {
    await fx.cleanup();
    for (const b of bases.splice(0)) rmSync(b, { recursive: true, force: true });
  });

  it('a file named like a pathspec is rejected alone: the commit holds it, apply brings the rest', async () => {
    const base = outsideFolder('task-hunks-');
    bases.push(base);
    const repo = makeRepo(join(base, 'repo'), { 'notes.txt': 'notes\n' });
    const data = join(base, 'data');
    const env = {
      ...(await fx.startLlm({
        name: 'pathspec-names',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_a',
                  name: 'file_editor',
                  arguments: {
                    command: 'str_replace',
                    path: 'notes.txt',
                    old_str: 'notes\n',
                    new_str: 'notes, edited\n',
                    security_risk: 'LOW',
                    summary: 'edit notes',
                  },
                },
                createCall('call_b', '*.txt', 'a file named like a pattern\n'),
              ],
            },
          },
          { match: { lastRole: 'tool' as const }, reply: { toolCalls: [finishCall()] } },
        ],
      })),
      LOGBOOK_WORKTREES_DIR: data,
    };
    const r = await runCli(['run', '--worktree', 'names', 'edit notes', '--confirm', 'never'], {
      cwd: repo,
      env,
    });
    assert.equal(r.code, 0, printed(r));
    const task = new TaskStore(data, repositoryAt(repo)).get('names');
    assert.ok(existsSync(join(task.worktree, '*.txt')), printed(r));

    // What the editor's review does: the task's work committed first, then the rejected
    // creation taken back (the file deleted) and committed on its own.
    // The user also typed in notes.txt meanwhile: that is not part of the rejection.
    commitPending(task, 'the review');
    writeFileSync(join(task.worktree, 'notes.txt'), 'notes, typed by the user\n');
    rmSync(join(task.worktree, '*.txt'));
    const commit = commitRejection(task, '*.txt', true);
    assert.ok(commit, 'nothing was committed');
    assert.equal(gitIn(task.worktree, 'show', '--format=', '--name-status', commit).trim(), 'D\t*.txt');
    assert.equal(gitIn(task.worktree, 'status', '--porcelain').trim(), 'M notes.txt');

    writeFileSync(join(task.worktree, 'notes.txt'), 'notes, edited\n');
    const applied = applyTask(task, repo);
    assert.equal(applied.kind, 'merged');
    assert.equal(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'notes, edited\n');
    assert.ok(!existsSync(join(repo, '*.txt')), 'the rejected file was applied');
  });
});
