// In an untrusted workspace no worktree task starts from the editor (a task runs commands, and git
// runs what a repository's config names), even in a repository where one could.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { EXTENSION_ID, logbook, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];

describe('worktree tasks: untrusted workspace', () => {
  it('starts no task and opens no terminal, in a repository', async () => {
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
    const data = mkdtempSync(join(outside, 'untrusted-tasks-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    const file = join(root, 'untrusted-task.txt');
    try {
      writeFileSync(file, 'x\n');
      for (const args of [
        ['init', '--quiet'],
        ['add', '--all'],
        ['commit', '--quiet', '-m', 'first'],
      ])
        execFileSync('git', [...ID, ...args], { cwd: root });
      const terminals = vscode.window.terminals.length;
      const started = await vscode.commands.executeCommand('logbook.tasks.start', {
        task: 'anything',
        name: 'untrusted-task',
        carry: false,
      });
      assert.equal(started, undefined);
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(vscode.window.terminals.length, terminals);
      assert.deepEqual((await taskPlace()).store.list(), []);
    } finally {
      delete process.env.LOGBOOK_WORKTREES_DIR;
      rmSync(join(root, '.git'), { recursive: true, force: true });
      rmSync(file, { force: true });
      rmSync(data, { recursive: true, force: true });
    }
  });
});
