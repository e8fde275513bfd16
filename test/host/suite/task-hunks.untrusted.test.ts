// In an untrusted workspace a task is not reviewed per hunk: the review commits on the task's
// branch, and git runs what a repository's config and hooks name. Nothing is committed, nothing
// in the task's worktree changes.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createTask } from '../../../src/host/node/worktrees/create-task';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { EXTENSION_ID, logbook, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });

describe('a task reviewed per hunk: untrusted workspace', () => {
  it('puts nothing under review and commits nothing on the task branch', async () => {
    await logbook();
    assert.equal(vscode.workspace.isTrusted, false);
    const root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    const outside = join(
      vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
      'test-results',
      'outside',
    );
    mkdirSync(outside, { recursive: true });
    const data = mkdtempSync(join(outside, 'untrusted-hunks-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    const file = join(root, 'untrusted-hunks.txt');
    try {
      writeFileSync(file, 'x\n');
      git(root, 'init', '--quiet');
      git(root, 'add', '--all');
      git(root, 'commit', '--quiet', '-m', 'first');
      const { record } = createTask((await taskPlace()).store, {
        from: root,
        task: 'edit',
        name: 'untrusted',
      });
      writeFileSync(join(record.worktree, 'untrusted-hunks.txt'), 'changed by the task\n');
      const head = git(record.worktree, 'rev-parse', 'HEAD');

      const shown = await vscode.commands.executeCommand('logbook.tasks.reviewHunks', 'untrusted');
      assert.equal(shown, undefined);
      assert.equal(git(record.worktree, 'rev-parse', 'HEAD'), head, 'a commit was made on the branch');
      assert.equal(
        readFileSync(join(record.worktree, 'untrusted-hunks.txt'), 'utf8'),
        'changed by the task\n',
      );
    } finally {
      delete process.env.LOGBOOK_WORKTREES_DIR;
      rmSync(join(root, '.git'), { recursive: true, force: true });
      rmSync(file, { force: true });
      rmSync(data, { recursive: true, force: true });
    }
  });
});
