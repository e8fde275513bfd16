// The server's git patch as diff and apply read it, on patches real git writes the way the
// agent-server does (a scratch index of the working tree, `git diff --binary --cached BASE`), and
// what apply does with a rename, a symlink and a deletion in a local working tree.
import assert from 'node:assert/strict';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ServerChange } from '../../../src/host/node/remote/agent-server-git';
import { applyServerChanges } from '../../../src/host/node/remote/remote-apply';
import { completeFromPatch } from '../../../src/host/node/remote/remote-change-set';
import { changesPatch, changeStatLines } from '../../../src/host/node/remote/remote-diff';
import { git, freshRootPerTest, serverPatch } from './server-patch';
import { hunkSide, readGitPatch, unquoteGitName } from '../../../src/host/node/remote/remote-patch';

const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

function repository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), BASE);
  writeFileSync(join(dir, 'b.bin'), Buffer.from([0, 1, 2, 0]));
  writeFileSync(join(dir, 'run.sh'), 'echo\n');
  writeFileSync(join(dir, 'spécial name.txt'), 'x\n');
  symlinkSync('a.txt', join(dir, 'old-link'));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
}

describe("the agent-server's git patch in diff and apply", () => {
  const fresh = freshRootPerTest('remote-patch-');

  it("reads git's own patch: a rename and its hunks, symlinks' targets, a deletion, modes, a quoted name", () => {
    const dir = join(fresh.path, 'server');
    repository(dir);
    renameSync(join(dir, 'a.txt'), join(dir, 'moved.txt'));
    writeFileSync(join(dir, 'moved.txt'), BASE.replace('seven\n', 'SEVEN\n'));
    unlinkSync(join(dir, 'b.bin'));
    chmodSync(join(dir, 'run.sh'), 0o755);
    symlinkSync('../x', join(dir, 'new-link'));
    unlinkSync(join(dir, 'old-link'));
    symlinkSync('moved.txt', join(dir, 'old-link'));
    writeFileSync(join(dir, 'spécial name.txt'), 'y\n');
    const files = readGitPatch(serverPatch(dir));
    const by = new Map(files.map((f) => [f.path, f]));
    const moved = by.get('moved.txt')!;
    assert.equal(moved.moved, 'rename');
    assert.equal(moved.from, 'a.txt');
    assert.equal(moved.newMode, '100644');
    assert.ok(moved.hunks.includes('+SEVEN'));
    assert.equal(by.get('b.bin')?.deleted, true);
    assert.equal(by.get('b.bin')?.binary, true);
    assert.equal(by.get('run.sh')?.newMode, '100755');
    assert.equal(by.get('new-link')?.newMode, '120000');
    assert.equal(hunkSide(by.get('new-link')!.hunks, '+'), '../x');
    assert.equal(hunkSide(by.get('old-link')!.hunks, '-'), 'a.txt');
    assert.equal(hunkSide(by.get('old-link')!.hunks, '+'), 'moved.txt');
    assert.ok(by.has('spécial name.txt'), `a quoted name: ${[...by.keys()].join(', ')}`);
    assert.equal(unquoteGitName('"tab\\there \\"q\\" \\303\\251"'), 'tab\there "q" é');
    assert.equal(unquoteGitName('"open'), undefined);
  });

  it('a rename is one change whose text before is the base exactly; the stat and the diff show it so', () => {
    const dir = join(fresh.path, 'server');
    repository(dir);
    renameSync(join(dir, 'a.txt'), join(dir, 'moved.txt'));
    writeFileSync(join(dir, 'moved.txt'), BASE.replace('seven\n', 'SEVEN'));
    const now = readFileSync(join(dir, 'moved.txt'));
    const listed: ServerChange[] = [
      { status: 'DELETED', path: 'a.txt', original: null, modified: null },
      { status: 'ADDED', path: 'moved.txt', original: null, modified: now },
    ];
    const changes = completeFromPatch(listed, readGitPatch(serverPatch(dir)));
    assert.equal(changes.length, 1);
    assert.deepEqual(
      { ...changes[0], modified: undefined },
      {
        status: 'RENAMED',
        path: 'moved.txt',
        from: 'a.txt',
        original: BASE,
        modified: undefined,
        executable: false,
      },
    );
    assert.deepEqual(changeStatLines(changes), ['  R a.txt -> moved.txt']);
    assert.match(
      changesPatch(changes),
      /^rename from a\.txt\nrename to moved\.txt\n--- a\/a\.txt\n\+\+\+ b\/moved\.txt\n/,
    );
  });

  it('a file and a symlink renamed whole are moved here as they are; a moved symlink is judged from its new place', () => {
    const dir = join(fresh.path, 'server');
    repository(dir);
    git(dir, 'mv', 'old-link', 'new-link');
    mkdirSync(join(dir, 'sub'));
    git(dir, 'mv', 'run.sh', 'sub/run.sh');
    const files = readGitPatch(serverPatch(dir));
    const listed: ServerChange[] = [
      { status: 'ADDED', path: 'new-link', original: null, modified: null },
      { status: 'DELETED', path: 'old-link', original: null, modified: null },
      { status: 'DELETED', path: 'run.sh', original: null, modified: null },
      { status: 'ADDED', path: 'sub/run.sh', original: null, modified: null },
    ];
    const changes = completeFromPatch(listed, files);
    assert.deepEqual(
      changes.map((c) => [c.status, c.from, c.path, c.modified]),
      [
        ['RENAMED', 'old-link', 'new-link', null],
        ['RENAMED', 'run.sh', 'sub/run.sh', null],
      ],
    );
    assert.match(
      changesPatch(changes),
      /rename to new-link\n--- a\/old-link\n\+\+\+ b\/new-link\n\(renamed whole/,
    );
    const tree = join(fresh.path, 'tree');
    repository(tree);
    writeFileSync(join(tree, 'run.sh'), 'echo here\n');
    const r = applyServerChanges(tree, changes);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.applied, ['old-link -> new-link']);
    assert.deepEqual(r.merged, ['run.sh -> sub/run.sh']);
    assert.equal(readlinkSync(join(tree, 'new-link')), 'a.txt');
    assert.equal(readFileSync(join(tree, 'sub', 'run.sh'), 'utf8'), 'echo here\n');
    // sub/up -> ../a.txt leads to a.txt; moved to the top, the same target climbs out of the tree.
    const tree2 = join(fresh.path, 'tree2');
    repository(tree2);
    mkdirSync(join(tree2, 'sub'));
    symlinkSync('../a.txt', join(tree2, 'sub', 'up'));
    git(tree2, 'add', 'sub/up');
    git(tree2, 'commit', '-qm', 'a link in sub');
    const r2 = applyServerChanges(tree2, [
      { status: 'RENAMED', path: 'up', from: 'sub/up', original: null, modified: null },
    ]);
    assert.match(
      r2.conflicts[0]?.why ?? '',
      /a symlink to \.\.\/a\.txt, which leads outside the working tree/,
    );
    assert.equal(readlinkSync(join(tree2, 'sub', 'up')), '../a.txt');
    assert.equal(lstatSync(join(tree2, 'up'), { throwIfNoEntry: false }), undefined);
  });

  it('apply: a rename over a different file here, a symlink here that leads elsewhere, are left and named', () => {
    const tree = join(fresh.path, 'tree');
    repository(tree);
    writeFileSync(join(tree, 'moved.txt'), 'mine\n');
    symlinkSync('mine', join(tree, 'link'));
    const r = applyServerChanges(tree, [
      { status: 'RENAMED', path: 'moved.txt', from: 'a.txt', original: BASE, modified: Buffer.from(BASE) },
      {
        status: 'UPDATED',
        path: 'link',
        original: 'before',
        modified: Buffer.from('a.txt'),
        symlink: 'a.txt',
        wasSymlink: true,
      },
    ]);
    assert.deepEqual(r.conflicts, [
      {
        path: 'a.txt -> moved.txt',
        why: 'renamed on the server; another file is here under the new name; left as it is',
        file: 'a.txt',
      },
      { path: 'link', why: 'a symlink here leads elsewhere (to mine); left as it is' },
    ]);
    assert.equal(readFileSync(join(tree, 'a.txt'), 'utf8'), BASE);
    assert.equal(readFileSync(join(tree, 'moved.txt'), 'utf8'), 'mine\n');
    assert.equal(readlinkSync(join(tree, 'link')), 'mine');
  });

  it('apply: a deleted symlink is removed (not what it leads to); a changed one is replaced when it is as the base had it', () => {
    const tree = join(fresh.path, 'tree');
    repository(tree);
    const outside = join(fresh.path, 'outside.txt');
    writeFileSync(outside, 'keep me\n');
    symlinkSync(outside, join(tree, 'door'));
    git(tree, 'add', 'door');
    git(tree, 'commit', '-qm', 'door');
    const r = applyServerChanges(tree, [
      { status: 'DELETED', path: 'door', original: null, modified: null, wasSymlink: true },
      {
        status: 'UPDATED',
        path: 'old-link',
        original: 'a.txt',
        modified: Buffer.from('run.sh'),
        symlink: 'run.sh',
        wasSymlink: true,
      },
    ]);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.applied, ['door', 'old-link']);
    assert.equal(
      lstatSync(join(tree, 'door'), { throwIfNoEntry: false }),
      undefined,
      'the symlink is still here',
    );
    assert.equal(readFileSync(outside, 'utf8'), 'keep me\n');
    assert.equal(readlinkSync(join(tree, 'old-link')), 'run.sh');
  });
});
