// A remote conversation's rename and symlinks in the editor, against the real agent-server: Review
// the Server's Changes shows a renamed file as one (its HEAD side under the old name), and Apply
// renames it here, makes the symlink that leads inside the window's tree and refuses, naming why,
// the one that leads out of it.
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { commandThenFinish } from '../../support/command-scenario';
import { endRemote, finishedRemote, type FinishedRemote, repoWithFiles } from './remote-finished';

const BASE = 'line 1\nline 2\nline 3\nline 4\n';

const MOVES = commandThenFinish(
  'remote-moves-editor',
  "mv a.txt moved.txt && printf 'line 5\\n' >> moved.txt && ln -s moved.txt alias && " +
    'ln -s ../../../../outside-of-it out',
  'rename a.txt, link to it, link out',
);

const repoWithBase = (dir: string): void => repoWithFiles(dir, { 'a.txt': BASE });

const LOCAL = ['.git', 'a.txt', 'moved.txt', 'alias', 'out'];

describe("A remote conversation's rename and symlinks: review and apply (the real agent-server)", function () {
  this.timeout(180_000);
  let remote: FinishedRemote | undefined;
  let root: string;
  let id: string;

  before(async function () {
    remote = await finishedRemote(this, {
      prefix: 'moves-',
      files: { 'a.txt': BASE },
      scenario: MOVES,
      task: 'move',
    });
    ({ root, id } = remote);
  });
  after(() => endRemote(remote, LOCAL));

  it("Review the Server's Changes shows the rename as one file and each symlink by its target", async () => {
    const n = await vscode.commands.executeCommand<number>('logbook.reviewRemoteChanges', id);
    assert.equal(n, 3);
    const side = (s: string, p: string) =>
      vscode.Uri.from({ scheme: 'logbook-remote', path: `/${id}/${s}/${p}` });
    assert.equal((await vscode.workspace.openTextDocument(side('head', 'a.txt'))).getText(), BASE);
    assert.equal(
      (await vscode.workspace.openTextDocument(side('now', 'moved.txt'))).getText(),
      `${BASE}line 5\n`,
    );
    assert.equal((await vscode.workspace.openTextDocument(side('now', 'alias'))).getText(), 'moved.txt');
    assert.equal(existsSync(join(root, 'moved.txt')), false, 'a review wrote a local file');
  });

  it('Apply renames a.txt here, makes the symlink inside the tree, refuses the one out of it and says why', async () => {
    repoWithBase(root);
    const r = await vscode.commands.executeCommand<{
      applied: string[];
      conflicts: { path: string; why: string }[];
    }>('logbook.applyRemoteChanges', id);
    assert.deepEqual(r?.applied.sort(), ['a.txt -> moved.txt', 'alias']);
    assert.deepEqual(
      r?.conflicts.map((c) => c.path),
      ['out'],
    );
    assert.match(
      r!.conflicts[0]!.why,
      /a symlink to \.\.\/\.\.\/\.\.\/\.\.\/outside-of-it, which leads outside the working tree/,
    );
    assert.equal(existsSync(join(root, 'a.txt')), false);
    assert.equal(readFileSync(join(root, 'moved.txt'), 'utf8'), `${BASE}line 5\n`);
    assert.ok(lstatSync(join(root, 'alias')).isSymbolicLink());
    assert.equal(readlinkSync(join(root, 'alias')), 'moved.txt');
    assert.equal(lstatSync(join(root, 'out'), { throwIfNoEntry: false }), undefined);
  });
});
