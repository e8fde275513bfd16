// The hidden places' files by identity: a link to one is known wherever it lies, also when the file
// appeared after an earlier walk; a walk that stopped early refuses what it cannot tell apart.
import * as assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hiddenInodes, hiddenLinkCheck } from '../../../src/host/node/sandbox/hidden-inodes';
import { hiddenLinkNames } from '../../../src/host/node/sandbox/hidden-link-names';

describe('hidden files by identity (hidden-inodes)', () => {
  let base: string;
  let ssh: string;
  let ws: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'logbook-hidden-inodes-'));
    ssh = join(base, 'home', '.ssh');
    ws = join(base, 'ws');
    mkdirSync(ssh, { recursive: true });
    mkdirSync(ws);
    writeFileSync(join(ssh, 'id_old'), 'old key\n');
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    linkSync(join(ws, 'a.txt'), join(ws, 'b.txt'));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  /** The folder's time set back, so the walk is not taken for one that raced a change. */
  const settle = (dir: string, ago = 10_000) =>
    utimesSync(dir, new Date(Date.now() - ago), new Date(Date.now() - ago));

  it('knows a link to a hidden file, and not an ordinary file with other links', () => {
    linkSync(join(ssh, 'id_old'), join(ws, 'notes.txt'));
    settle(ssh);
    const check = hiddenLinkCheck([ssh, join(base, 'home', '.aws')]);
    assert.deepEqual(check(join(ws, 'notes.txt')), { hidden: true });
    assert.equal(check(join(ws, 'a.txt')), undefined);
    assert.equal(check(join(ws, 'missing.txt')), undefined);
  });

  it('a key put in ~/.ssh after a walk is known at the next look', () => {
    settle(ssh);
    const places = [ssh];
    assert.equal(hiddenInodes(places).multiLinked.length, 0);
    assert.equal(hiddenLinkCheck(places)(join(ws, 'a.txt')), undefined, 'walked once, with nothing linked');
    writeFileSync(join(ssh, 'id_new'), 'new key\n');
    linkSync(join(ssh, 'id_new'), join(ws, 'later.txt'));
    // Not a walk that raced the change: the folder's time moved, and that alone makes a new walk.
    settle(ssh, 5_000);
    assert.deepEqual(hiddenLinkCheck(places)(join(ws, 'later.txt')), { hidden: true });
  });

  it('a link made later to a file that was hidden already is known too (every file is kept)', () => {
    settle(ssh);
    const places = [ssh];
    assert.equal(hiddenLinkCheck(places)(join(ws, 'a.txt')), undefined);
    linkSync(join(ssh, 'id_old'), join(ws, 'old.txt'));
    assert.deepEqual(hiddenLinkCheck(places)(join(ws, 'old.txt')), { hidden: true });
  });

  it('a walk that stopped at its limit refuses files with other links on that device', () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(ssh, `k${i}`), `${i}\n`);
    const inodes = hiddenInodes([ssh], { limits: { entries: 3, depth: 32 } });
    assert.equal(inodes.complete, false);
    assert.match(inodes.incomplete(statSync(join(ws, 'a.txt')).dev) ?? '', /more than 3 entries/);
  });

  it('the sandbox covers the names of hidden files with other links, and nothing when there are none', () => {
    settle(ssh);
    const folders = { workspaces: [ws], writable: [ws] };
    assert.deepEqual(hiddenLinkNames(undefined, folders, [ssh]).names, [], 'no hidden file has other links');
    linkSync(join(ssh, 'id_old'), join(ws, 'notes.txt'));
    const found = hiddenLinkNames(undefined, folders, [ssh]);
    assert.deepEqual(found.names, [join(ws, 'notes.txt')]);
    // A writable launch names the workspace's linked files: they are judged without a walk.
    const known = [join(ws, 'a.txt'), join(ws, 'notes.txt')];
    assert.deepEqual(hiddenLinkNames(known, { workspaces: [ws], writable: [] }, [ssh]).names, [
      join(ws, 'notes.txt'),
    ]);
    assert.match(found.note, /notes\.txt are hard links to files the sandbox hides/);
    assert.doesNotMatch(found.note, /\.ssh|id_old/, 'the note does not name the hidden file');
  });
});
