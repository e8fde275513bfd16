import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import * as vscode from 'vscode';
import { minimalReplacement } from '../../../src/host/vscode/ports/text-edits';
import { OutsideWorkspaceError, WorkspaceFilePort } from '../../../src/host/vscode/ports/workspace-file-port';
import { pathToUri } from '../../../src/host/vscode/ports/workspace-paths';

const workspaceRoot = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

async function diskText(p: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(pathToUri(p)));
  } catch {
    return undefined;
  }
}

async function writeDisk(p: string, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(pathToUri(p), new TextEncoder().encode(text));
}

describe('files: WorkspaceFilePort', () => {
  let dir: string;
  const refuseOutside = async () => false;

  beforeEach(async () => {
    dir = path.join(workspaceRoot(), `files-test-${randomUUID().slice(0, 8)}`);
    await vscode.workspace.fs.createDirectory(pathToUri(dir));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(pathToUri(dir), { recursive: true, useTrash: false });
  });

  it('reports the workspace folders as roots', () => {
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    assert.deepEqual(port.roots, [workspaceRoot()]);
  });

  it('edits an open dirty buffer in place, keeps the unsaved text, saves, and reads prefer the buffer', async () => {
    const file = path.join(dir, 'dirty.txt');
    await writeDisk(file, 'one\ntwo\nthree\n');
    const editor = await vscode.window.showTextDocument(pathToUri(file));
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'USER '));
    assert.equal(editor.document.isDirty, true);

    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    const seen = await port.readText(file);
    assert.equal(seen, 'USER one\ntwo\nthree\n', 'the read must return the unsaved buffer');
    assert.equal(await diskText(file), 'one\ntwo\nthree\n');

    await port.writeText(file, seen!.replace('two', 'TWO'));
    assert.equal(editor.document.getText(), 'USER one\nTWO\nthree\n');
    assert.equal(editor.document.isDirty, false, 'the document is saved after the edit');
    assert.equal(await diskText(file), 'USER one\nTWO\nthree\n');
  });

  it('lets the user undo the agent edit with the undo command', async () => {
    const file = path.join(dir, 'undo.txt');
    await writeDisk(file, 'alpha\nbeta\ngamma\n');
    const editor = await vscode.window.showTextDocument(pathToUri(file));
    await editor.edit((b) => b.insert(new vscode.Position(2, 0), '// user\n'));
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    await port.writeText(file, 'alpha\nBETA (agent)\n// user\ngamma\n');
    assert.equal(editor.document.getText(), 'alpha\nBETA (agent)\n// user\ngamma\n');

    await vscode.window.showTextDocument(editor.document, { preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), 'alpha\nbeta\n// user\ngamma\n');
    // Dropped, not left dirty: a buffer kept after its folder is deleted is written back by the
    // next "save all" of a later suite, a file appearing in the workspace out of nowhere.
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(editor.document.isDirty, false);
  });

  it('creates files and parent folders with exact bytes, stats and lists them', async () => {
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    const file = path.join(dir, 'a', 'b', 'new.txt');
    await port.writeText(file, 'x\r\ny\r\nno final newline');
    assert.equal(await diskText(file), 'x\r\ny\r\nno final newline');
    assert.deepEqual(await port.stat(file), { type: 'file', size: 22 });
    assert.equal((await port.stat(path.join(dir, 'a')))?.type, 'directory');
    assert.deepEqual(await port.list(path.join(dir, 'a')), ['b/']);
    assert.deepEqual(await port.list(path.join(dir, 'a', 'b')), ['new.txt']);
    assert.equal(await port.stat(path.join(dir, 'missing.txt')), undefined);
    assert.equal(await port.readText(path.join(dir, 'missing.txt')), undefined);
  });

  it('edits a closed CRLF file byte for byte and deletes files', async () => {
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    const file = path.join(dir, 'crlf.txt');
    await writeDisk(file, 'a\r\nb\r\nc');
    assert.equal(await port.readText(file), 'a\r\nb\r\nc');
    await port.writeText(file, 'a\r\nB\r\nc');
    assert.equal(await diskText(file), 'a\r\nB\r\nc');
    await port.delete(file);
    assert.equal(await port.stat(file), undefined);
  });

  it('refuses to write or delete outside the workspace unless the callback allows it', async () => {
    const outside = path.join(tmpdir(), `logbook-outside-${randomUUID()}.txt`);
    let asked: string | undefined;
    const refusing = new WorkspaceFilePort({
      confirmOutside: async (p) => {
        asked = p;
        return false;
      },
    });
    await assert.rejects(refusing.writeText(outside, 'nope'), OutsideWorkspaceError);
    assert.equal(asked, outside);
    assert.equal(await diskText(outside), undefined, 'nothing was written');
    await assert.rejects(
      refusing.writeText(path.join(workspaceRoot(), '..', 'escape.txt'), 'x'),
      /outside the workspace/,
    );

    const allowing = new WorkspaceFilePort({ confirmOutside: async () => true });
    await allowing.writeText(outside, 'allowed');
    assert.equal(await diskText(outside), 'allowed');
    await assert.rejects(refusing.delete(outside), OutsideWorkspaceError);
    await allowing.delete(outside);
    assert.equal(await diskText(outside), undefined);
  });

  it('refuses relative paths', async () => {
    const port = new WorkspaceFilePort({ confirmOutside: refuseOutside });
    await assert.rejects(port.writeText('relative.txt', 'x'), /absolute path/);
  });
});

describe('files: minimal replacement (pure)', () => {
  const text = fc
    .array(fc.constantFrom('a', 'b', '\r\n', '\n', '\r', '😀', 'é'), { maxLength: 30 })
    .map((parts) => parts.join(''));

  it('turns the old text into the new one without splitting a CRLF or a surrogate pair', () => {
    fc.assert(
      fc.property(text, text, (oldText, newText) => {
        const r = minimalReplacement(oldText, newText);
        assert.equal(oldText.slice(0, r.start) + r.text + oldText.slice(r.end), newText);
        for (const at of [r.start, r.end]) {
          const pair = oldText.slice(at - 1, at + 1);
          assert.ok(
            at === 0 ||
              at === oldText.length ||
              (pair !== '\r\n' && !/^[\ud800-\udbff][\udc00-\udfff]$/.test(pair)),
          );
        }
      }),
    );
  });

  it('replaces only the changed middle', () => {
    assert.deepEqual(minimalReplacement('one\ntwo\nthree\n', 'one\nTWO\nthree\n'), {
      start: 4,
      end: 7,
      text: 'TWO',
    });
  });
});
