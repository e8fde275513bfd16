// Logbook's own writes to the workspace's settings (an allow rule, a renamed key moved, a model
// chosen) when VS Code's open copy of .vscode/settings.json is behind the file on disk: the write
// lands on what the disk holds and leaves no unsaved edit behind; an unsaved edit of the user's is
// never discarded (the write is refused, with a message saying so).
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { writeAcceptedWorkspaceValue, writeSettingAt } from '../../../src/host/vscode/settings/config';
import { until } from '../../support/poll';
import { workspaceRoot } from './helpers';

const inspect = (key: string) => vscode.workspace.getConfiguration('logbook').inspect(key);

/** Resolves once VS Code reads the workspace's `logbook.KEY` as `expected`. */
async function workspaceValueBecomes(key: string, expected: unknown): Promise<void> {
  await until(
    () => JSON.stringify(inspect(key)?.workspaceValue) === JSON.stringify(expected),
    `logbook.${key} in the workspace to become ${JSON.stringify(expected)}`,
    10_000,
  );
}

describe("settings writes when VS Code's copy of settings.json is behind the disk", function () {
  this.timeout(60_000);
  const file = join(workspaceRoot(), '.vscode', 'settings.json');
  const uri = vscode.Uri.file(file);

  /** Writes `content` to the settings file on disk and opens VS Code's copy once it reads it. */
  async function openedWith(content: object): Promise<vscode.TextDocument> {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(content, null, 2));
    for (const [key, value] of Object.entries(content))
      await workspaceValueBecomes(key.slice('logbook.'.length), value);
    const doc = await vscode.workspace.openTextDocument(uri);
    await until(() => doc.getText() === readFileSync(file, 'utf8'), 'the copy to load', 10_000);
    return doc;
  }

  /** Leaves no unsaved copy and no file behind, whatever a test left. */
  afterEach(async () => {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc?.isDirty) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dirname(file), { recursive: true, force: true });
    await workspaceValueBecomes('terminal.timeoutSeconds', undefined);
    await workspaceValueBecomes('confirmation.allowRules', undefined);
  });

  it('a change on disk the open copy has not read yet: the write lands beside it, the copy stays clean', async () => {
    const doc = await openedWith({ 'logbook.terminal.timeoutSeconds': 11 });
    // Another hand changes the file, and Logbook writes before VS Code's copy has read the change.
    writeFileSync(file, JSON.stringify({ 'logbook.terminal.timeoutSeconds': 22 }, null, 2));
    await writeAcceptedWorkspaceValue('confirmation.allowRules', ['echo']);
    assert.deepEqual(inspect('confirmation.allowRules')?.workspaceValue, ['echo'], 'read once written');
    assert.equal(doc.isDirty, false, 'no unsaved edit of Logbook is left in settings.json');
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(onDisk['logbook.confirmation.allowRules'], ['echo'], 'the write landed');
    assert.equal(onDisk['logbook.terminal.timeoutSeconds'], 22, 'the change on disk is kept');
    await workspaceValueBecomes('confirmation.allowRules', ['echo']);
    await workspaceValueBecomes('terminal.timeoutSeconds', 22);
    await until(() => doc.getText() === readFileSync(file, 'utf8'), 'the copy to catch up', 10_000);
    assert.equal(doc.isDirty, false);
  });

  it('a settings file deleted behind the open copy: the write does not bring its old values back', async () => {
    const doc = await openedWith({ 'logbook.terminal.timeoutSeconds': 33 });
    rmSync(file);
    await workspaceValueBecomes('terminal.timeoutSeconds', undefined);
    await writeAcceptedWorkspaceValue('confirmation.allowRules', ['ls']);
    assert.deepEqual(inspect('confirmation.allowRules')?.workspaceValue, ['ls'], 'read once written');
    assert.equal(doc.isDirty, false, 'no unsaved edit of Logbook is left in settings.json');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { 'logbook.confirmation.allowRules': ['ls'] });
    await workspaceValueBecomes('confirmation.allowRules', ['ls']);
    assert.equal(inspect('terminal.timeoutSeconds')?.workspaceValue, undefined);
  });

  it('a settings.json that is not JSON: the write is refused, naming the file, and the file is left as it is', async () => {
    mkdirSync(dirname(file), { recursive: true });
    const broken = '{\n  "logbook.terminal.timeoutSeconds": 66,\n  "logbook.model.name": \n}\n';
    writeFileSync(file, broken);
    await assert.rejects(
      writeSettingAt('model.name', 'm', { kind: 'workspace' }),
      /\.vscode\/settings\.json is not valid JSON \(a value missing at offset \d+\)/,
    );
    assert.equal(readFileSync(file, 'utf8'), broken);
  });

  it("the user's own unsaved edit: the write is refused, saying so, and the edit is kept", async () => {
    const doc = await openedWith({ 'logbook.terminal.timeoutSeconds': 44 });
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 1), '\n  // the user is typing here\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const typed = doc.getText();
    await assert.rejects(
      writeSettingAt('terminal.timeoutSeconds', 55, { kind: 'workspace' }),
      /unsaved changes/,
    );
    assert.equal(doc.isDirty, true, "the user's edit is still there to save");
    assert.equal(doc.getText(), typed, 'and unchanged');
    assert.equal(JSON.parse(readFileSync(file, 'utf8'))['logbook.terminal.timeoutSeconds'], 44);
  });
});
