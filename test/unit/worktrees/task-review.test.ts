// A task reviewed per hunk before apply: the review's id for a task, the words of a rejection's
// commit, and, with real git, a rejected hunk committed on the task's branch so that apply brings
// exactly the accepted change.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rejectionCommitMessage, taskOfReviewId, taskReviewId } from '../../../src/core/worktrees';
import { applyTask, commitPending } from '../../../src/host/node/worktrees/apply-task';
import { createTask } from '../../../src/host/node/worktrees/create-task';
import { commitRejection } from '../../../src/host/node/worktrees/review-commit';
import { repositoryAt, TaskStore } from '../../../src/host/node/worktrees/task-store';
import { gitIn, makeRepo } from '../cli/worktree-fixtures';

describe('a task reviewed per hunk', () => {
  it("names the task's review apart from any conversation's", () => {
    assert.equal(taskOfReviewId(taskReviewId('fix-login')), 'fix-login');
    assert.equal(taskOfReviewId('0f7c2d7e-5b1a-4c47-9f8e-2a1b3c4d5e6f'), undefined);
    assert.equal(taskOfReviewId('task:'), undefined);
  });

  it('says in the commit which task, which file, and whether a hunk or the whole file was rejected', () => {
    const task = { name: 'fix-login', branch: 'logbook/fix-login' };
    const [hunk, body] = rejectionCommitMessage(task, 'src/a.ts', false);
    assert.equal(hunk, 'Logbook review of task fix-login: reject a hunk of src/a.ts');
    assert.match(body, /review of logbook\/fix-login before apply/);
    assert.equal(
      rejectionCommitMessage(task, 'b.txt', true)[0],
      'Logbook review of task fix-login: reject every change to b.txt',
    );
  });

  describe('with git', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'logbook-task-review-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('commits a rejected hunk on the branch; apply then brings only the accepted change', () => {
      const a = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
      const repo = makeRepo(join(dir, 'repo'), { 'a.txt': a, 'b.txt': 'b\n' });
      const store = new TaskStore(join(dir, 'tasks'), repositoryAt(repo));
      const { record: task } = createTask(store, { from: repo, task: 'edit two files', name: 'two' });
      // The task's change: two hunks in a.txt, one in b.txt, left uncommitted as an agent leaves it.
      writeFileSync(join(task.worktree, 'a.txt'), 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
      writeFileSync(join(task.worktree, 'b.txt'), 'B\n');
      assert.equal(commitPending(task, 'the review'), true);

      // Nothing rejected yet: nothing to commit.
      assert.equal(commitRejection(task, 'a.txt', false), null);
      // The review puts the first hunk of a.txt back, as the editor's Reject does.
      writeFileSync(join(task.worktree, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
      const commit = commitRejection(task, 'a.txt', false);
      assert.match(commit ?? '', /^[0-9a-f]{40}$/);
      assert.equal(
        gitIn(task.worktree, 'log', '-1', '--format=%s', task.branch).trim(),
        'Logbook review of task two: reject a hunk of a.txt',
      );
      assert.equal(gitIn(task.worktree, 'show', '--format=', '--name-only', commit!).trim(), 'a.txt');

      const result = applyTask(task, repo);
      assert.equal(result.kind, 'merged');
      assert.equal(result.committedPending, false, 'the review left nothing uncommitted');
      assert.equal(readFileSync(join(repo, 'a.txt'), 'utf8'), 'one\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n');
      assert.equal(readFileSync(join(repo, 'b.txt'), 'utf8'), 'B\n');
    });

    it('commits only the rejected file; what else the worktree holds stays uncommitted', () => {
      const repo = makeRepo(join(dir, 'repo'), { 'a.txt': 'a\n', 'b.txt': 'b\n' });
      const store = new TaskStore(join(dir, 'tasks'), repositoryAt(repo));
      const { record: task } = createTask(store, { from: repo, task: 'edit', name: 'only' });
      writeFileSync(join(task.worktree, 'a.txt'), 'A\n');
      commitPending(task, 'the review');
      writeFileSync(join(task.worktree, 'a.txt'), 'a\n');
      writeFileSync(join(task.worktree, 'b.txt'), 'typed meanwhile\n');
      assert.ok(commitRejection(task, 'a.txt', true));
      assert.equal(gitIn(task.worktree, 'status', '--porcelain').trim(), 'M b.txt');
    });
  });
});
