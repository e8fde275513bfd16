// In an untrusted workspace no worktree task starts from the editor (a task runs commands and git).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { logbook } from './helpers';

describe('worktree tasks: untrusted workspace', () => {
  it('starts no task and opens no terminal', async () => {
    await logbook();
    assert.equal(vscode.workspace.isTrusted, false);
    const terminals = vscode.window.terminals.length;
    const started = await vscode.commands.executeCommand('logbook.tasks.start', {
      task: 'anything',
      name: 'untrusted-task',
      carry: false,
    });
    assert.equal(started, undefined);
    assert.equal(vscode.window.terminals.length, terminals);
  });
});
