// A remote conversation's rename and symlinks in the editor, against the real agent-server: Review
// the Server's Changes shows a renamed file as one (its HEAD side under the old name; a file renamed
// whole says so on both sides), and Apply renames it here, makes the symlink that leads inside the
// window's tree and refuses, naming why, the one that leads out of it unless the user agrees; one
// into the window's own folders (its logs) is refused even then.
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { commandThenFinish } from '../../support/command-scenario';
import { logbook } from './helpers';
import { endRemote, finishedRemote, type FinishedRemote, repoWithFiles } from './remote-finished';

const BASE = 'line 1\nline 2\nline 3\nline 4\n';

/** `logs`: a symlink to the window's own log folder (where the extension writes). */
const moves = (logs: string) =>
  commandThenFinish(
    'remote-moves-editor',
    "mv a.txt moved.txt && printf 'line 5\\n' >> moved.txt && ln -s moved.txt alias && " +
      `ln -s ../../../../outside-of-it out && mv same.txt renamed.txt && ln -s '${logs}' logs`,
    'rename a.txt, link to it, link out',
  );

const FILES = { 'a.txt': BASE, 'same.txt': 'renamed whole\n' };
const repoWithBase = (dir: string): void => repoWithFiles(dir, FILES);

const LOCAL = ['.git', 'a.txt', 'moved.txt', 'alias', 'out', 'same.txt', 'renamed.txt', 'logs'];

describe("A remote conversation's rename and symlinks: review and apply (the real agent-server)", function () {
  this.timeout(180_000);
  let remote: FinishedRemote | undefined;
  let root: string;
  let id: string;

  let logs: string;

  before(async function () {
    logs = (await logbook()).logUri.fsPath;
    remote = await finishedRemote(this, {
      prefix: 'moves-',
      files: FILES,
      scenario: moves(logs),
      task: 'move',
    });
    ({ root, id } = remote);
  });
  after(() => endRemote(remote, LOCAL));

  it("Review the Server's Changes shows the rename as one file and each symlink by its target", async () => {
    const n = await vscode.commands.executeCommand<number>('logbook.reviewRemoteChanges', id);
    assert.equal(n, 5);
    const side = (s: string, p: string) =>
      vscode.Uri.from({ scheme: 'logbook-remote', path: `/${id}/${s}/${p}` });
    assert.equal((await vscode.workspace.openTextDocument(side('head', 'a.txt'))).getText(), BASE);
    assert.equal(
      (await vscode.workspace.openTextDocument(side('now', 'moved.txt'))).getText(),
      `${BASE}line 5\n`,
    );
    assert.equal((await vscode.workspace.openTextDocument(side('now', 'alias'))).getText(), 'moved.txt');
    // Renamed whole: the patch has no text of it; neither side is empty, as a deletion's would be.
    for (const [s, p] of [
      ['head', 'same.txt'],
      ['now', 'renamed.txt'],
    ] as const)
      assert.match(
        (await vscode.workspace.openTextDocument(side(s, p))).getText(),
        /renamed from same\.txt to renamed\.txt, no change/,
        `${s} side of the rename`,
      );
    assert.equal(existsSync(join(root, 'moved.txt')), false, 'a review wrote a local file');
  });

  it('Apply renames a.txt here, makes the symlink inside the tree, refuses the one out of it and says why', async () => {
    repoWithBase(root);
    const r = await vscode.commands.executeCommand<{
      applied: string[];
      conflicts: { path: string; why: string }[];
    }>('logbook.applyRemoteChanges', id);
    // The modal asking about the symlinks out of the tree is not answered: neither is made.
    assert.deepEqual(r?.applied.sort(), ['a.txt -> moved.txt', 'alias', 'same.txt -> renamed.txt']);
    assert.deepEqual(r?.conflicts.map((c) => c.path).sort(), ['logs', 'out']);
    assert.match(
      r!.conflicts.find((c) => c.path === 'out')!.why,
      /a symlink to \.\.\/\.\.\/\.\.\/\.\.\/outside-of-it, which leads outside the working tree/,
    );
    assert.equal(existsSync(join(root, 'a.txt')), false);
    assert.equal(readFileSync(join(root, 'moved.txt'), 'utf8'), `${BASE}line 5\n`);
    assert.ok(lstatSync(join(root, 'alias')).isSymbolicLink());
    assert.equal(readlinkSync(join(root, 'alias')), 'moved.txt');
    assert.equal(lstatSync(join(root, 'out'), { throwIfNoEntry: false }), undefined);
  });

  it("Apply makes the symlink out of the tree the user agreed to; one into the window's own log folder never", async () => {
    for (const f of LOCAL) rmSync(join(root, f), { recursive: true, force: true });
    repoWithBase(root);
    const r = await vscode.commands.executeCommand<{
      applied: string[];
      conflicts: { path: string; why: string }[];
      outside: { path: string; leads: string }[];
    }>('logbook.applyRemoteChanges', id, false, ['out', 'logs']);
    assert.ok(lstatSync(join(root, 'out')).isSymbolicLink(), 'the agreed symlink was not made');
    assert.equal(readlinkSync(join(root, 'out')), '../../../../outside-of-it');
    assert.deepEqual(
      r?.outside.map((l) => l.path),
      ['out'],
    );
    assert.deepEqual(
      r?.conflicts.map((c) => c.path),
      ['logs'],
    );
    assert.match(r!.conflicts[0]!.why, /which the sandbox hides/);
    assert.equal(lstatSync(join(root, 'logs'), { throwIfNoEntry: false }), undefined);
  });
});
