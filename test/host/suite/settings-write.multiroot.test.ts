// Logbook's writes to the settings of a multi-root window (the `multiroot` host profile: folders
// "app" and "lib" in a .code-workspace file): the workspace's go into the file's "settings", kept
// beside a change made on disk that VS Code's open copy has not read yet; a key is removed from a
// folder's .vscode/settings.json, its comments kept, and a value VS Code would not read there is
// refused as VS Code refuses it. None leaves an unsaved copy.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { writeSettingAt } from '../../../src/host/vscode/settings/config';
import { until } from '../../support/poll';

const inspect = (key: string, scope?: vscode.Uri) =>
  vscode.workspace.getConfiguration('logbook', scope).inspect(key);

describe('settings writes in a multi-root window', function () {
  this.timeout(60_000);
  const workspaceFile = vscode.workspace.workspaceFile!;
  const lib = () => vscode.workspace.workspaceFolders!.find((f) => f.name === 'lib')!;
  let original = '';

  before(() => {
    assert.equal(workspaceFile?.scheme, 'file', 'the window opens a .code-workspace file');
    original = readFileSync(workspaceFile.fsPath, 'utf8');
  });

  after(async () => {
    writeFileSync(workspaceFile.fsPath, original);
    rmSync(join(lib().uri.fsPath, '.vscode'), { recursive: true, force: true });
    await until(
      () => inspect('model.name')?.workspaceValue === undefined,
      'the workspace file restored',
      10_000,
    );
  });

  it("the workspace's: into the .code-workspace file's settings, beside a change its open copy has not read", async () => {
    const doc = await vscode.workspace.openTextDocument(workspaceFile);
    assert.equal(doc.getText(), original);
    const changed = {
      ...(JSON.parse(original) as object),
      settings: { 'logbook.terminal.timeoutSeconds': 21 },
    };
    writeFileSync(workspaceFile.fsPath, JSON.stringify(changed, null, 2));
    await writeSettingAt('model.name', 'multi-root-model', { kind: 'workspace' });
    assert.equal(doc.isDirty, false, 'no unsaved edit of Logbook is left in the workspace file');
    const onDisk = JSON.parse(readFileSync(workspaceFile.fsPath, 'utf8')) as {
      folders: unknown;
      settings: Record<string, unknown>;
    };
    assert.deepEqual(onDisk.folders, (JSON.parse(original) as { folders: unknown }).folders, 'folders kept');
    assert.deepEqual(onDisk.settings, {
      'logbook.terminal.timeoutSeconds': 21,
      'logbook.model.name': 'multi-root-model',
    });
    assert.equal(
      inspect('model.name')?.workspaceValue,
      'multi-root-model',
      'read back once the write returns',
    );
    await until(
      () => inspect('terminal.timeoutSeconds')?.workspaceValue === 21,
      'the change on disk read',
      10_000,
    );
  });

  it("a folder's: a key removed from that folder's .vscode/settings.json, the rest kept; a value VS Code would not read there refused", async () => {
    const file = join(lib().uri.fsPath, '.vscode', 'settings.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{\n  // the user\'s\n  "logbook.notASetting": 1,\n  "editor.tabSize": 2\n}\n');
    await until(
      () => inspect('notASetting', lib().uri)?.workspaceFolderValue === 1,
      'the folder settings read',
      10_000,
    );
    await writeSettingAt('notASetting', undefined, { kind: 'folder', folder: lib() });
    assert.equal(readFileSync(file, 'utf8'), '{\n  // the user\'s\n  "editor.tabSize": 2\n}\n');
    assert.equal(inspect('notASetting', lib().uri)?.workspaceFolderValue, undefined);
    // A window setting in a folder of a multi-root window: VS Code's own refusal, the file untouched.
    await assert.rejects(writeSettingAt('terminal.timeoutSeconds', 9, { kind: 'folder', folder: lib() }));
    assert.equal(readFileSync(file, 'utf8'), '{\n  // the user\'s\n  "editor.tabSize": 2\n}\n');
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()),
      [],
      'no unsaved copy is left',
    );
  });
});
