// After Confirm, an edit the agent proposed as a diff is not lost from view: the diff gives way to
// the file itself, marked for review (what the agent's final message points to). A rejected edit
// opens nothing.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, workspaceRoot } from './helpers';

const FILE = 'confirmed-edit.txt';

function editThenFinish(): Parameters<typeof scriptedModel>[0] {
  return {
    name: 'confirmed-edit',
    turns: [
      {
        match: { lastRole: 'user' },
        reply: {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'file_editor',
              arguments: {
                command: 'str_replace',
                path: FILE,
                old_str: 'two',
                new_str: 'TWO',
                security_risk: 'MEDIUM',
                summary: 'Capitalize two',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' },
        reply: {
          toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Review it inline.' } }],
        },
      },
    ],
  };
}

async function until<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fileEditor = () =>
  vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === join(workspaceRoot(), FILE));

describe('A confirmed edit stays in view', function () {
  this.timeout(60_000);
  let llm: ScriptedLlm | undefined;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(join(workspaceRoot(), FILE), 'one\ntwo\nthree\n');
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(join(workspaceRoot(), FILE), { force: true });
  });

  async function proposed() {
    llm = await scriptedModel(editThenFinish());
    const { service, review } = await logbook();
    const id = await vscode.commands.executeCommand<string>('logbook.startTask', 'Capitalize two');
    const session = await service.session(id);
    const pending = await until(() => session.conversation.awaitingConfirmation()[0], 20_000);
    assert.ok(pending, 'the edit waits for approval');
    const diff = await until(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find(
            (t) =>
              t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'logbook-proposed',
          ),
      10_000,
    );
    assert.ok(diff, 'the proposed edit is shown as a diff');
    return { service, review, id, session, actionId: pending.id };
  }

  it('opens the file with its review marks after Confirm in the chat', async () => {
    const { service, review, id, session, actionId } = await proposed();
    await service.approve(id, [actionId]);
    assert.equal(await session.settled(), 'finished');
    const editor = await until(fileEditor, 10_000);
    assert.ok(editor, 'the edited file is open');
    const marks = await until(() => review.decorationsOf(editor.document.uri), 5_000);
    assert.deepEqual(
      marks?.added.map((r) => r.start.line),
      [1],
      'the changed line is marked',
    );
  });

  it('opens nothing after Reject', async () => {
    const { service, id, session, actionId } = await proposed();
    await service.reject(id, [actionId], 'not now');
    await session.settled();
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(fileEditor(), undefined);
  });
});
