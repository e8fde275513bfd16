// The list of changed files read from the server's git patch (for when its `/api/git/changes`
// fails on a path that changed kind), on a patch real git writes the way the agent-server does,
// and what apply does with it in a local working tree: a file moved away and replaced by a symlink
// to its new name, and a file replaced by a symlink to another.
import assert from 'node:assert/strict';
import {
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
import type { ServerChange, ServerChangeStatus } from '../../../src/host/node/remote/agent-server-git';
import { applyServerChanges } from '../../../src/host/node/remote/remote-apply';
import { completeFromPatch } from '../../../src/host/node/remote/remote-change-set';
import { git, freshRootPerTest, serverPatch } from './server-patch';
import { readGitPatch } from '../../../src/host/node/remote/remote-patch';
import { listingFromPatch } from '../../../src/host/node/remote/remote-patch-listing';

function repository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'c.txt'), 'hello\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
}

describe("the server's change list read from its git patch", () => {
  const fresh = freshRootPerTest('remote-listing-');

  it('a path that changed kind is one UPDATED change; apply makes each symlink in the file’s place', () => {
    const server = join(fresh.path, 'server');
    repository(server);
    renameSync(join(server, 'a.txt'), join(server, 'b.txt'));
    symlinkSync('b.txt', join(server, 'a.txt'));
    unlinkSync(join(server, 'c.txt'));
    symlinkSync('a.txt', join(server, 'c.txt'));
    assert.match(git(server, 'diff', '--name-status', 'HEAD'), /^T\ta\.txt\nT\tc\.txt$/m);
    const files = readGitPatch(serverPatch(server));
    const listing = listingFromPatch(files);
    assert.deepEqual(listing, [
      { status: 'UPDATED', path: 'a.txt' },
      { status: 'ADDED', path: 'b.txt' },
      { status: 'UPDATED', path: 'c.txt' },
    ]);
    // As the server's endpoints give them: a symlink is not downloaded, a file is.
    const listed: ServerChange[] = listing.map(({ status, path }) => {
      const p = String(path);
      const link = lstatSync(join(server, p)).isSymbolicLink();
      return {
        status: status as ServerChangeStatus,
        path: p,
        original: null,
        modified: link ? null : readFileSync(join(server, p)),
      };
    });
    const changes = completeFromPatch(listed, files);
    const a = changes.find((c) => c.path === 'a.txt')!;
    assert.equal(a.typeChanged, true);
    assert.equal(a.symlink, 'b.txt');
    assert.equal(a.original, 'one\ntwo\nthree\n');

    const local = join(fresh.path, 'local');
    repository(local);
    const r = applyServerChanges(local, changes);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.applied.sort(), ['a.txt', 'b.txt', 'c.txt']);
    assert.equal(readlinkSync(join(local, 'a.txt')), 'b.txt');
    assert.equal(readlinkSync(join(local, 'c.txt')), 'a.txt');
    assert.equal(readFileSync(join(local, 'b.txt'), 'utf8'), 'one\ntwo\nthree\n');

    // A file changed here is not replaced by the server's symlink: named, left as it is.
    const changed = join(fresh.path, 'changed');
    repository(changed);
    writeFileSync(join(changed, 'c.txt'), 'hello, changed here\n');
    const r2 = applyServerChanges(changed, changes);
    assert.deepEqual(
      r2.conflicts.map((c) => c.path),
      ['c.txt'],
    );
    assert.match(r2.conflicts[0]!.why, /the file is changed here; left as it is/);
    assert.equal(readFileSync(join(changed, 'c.txt'), 'utf8'), 'hello, changed here\n');
  });
});
