// The list of changed files read from the server's git patch (for when its `/api/git/changes`
// fails on a path that changed kind), on a patch real git writes the way the agent-server does,
// and what apply does with it in a local working tree: a file moved away and replaced by a symlink
// to its new name, and a file replaced by a symlink to another.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ServerChange, ServerChangeStatus } from '../../../src/host/node/remote/agent-server-git';
import { applyServerChanges } from '../../../src/host/node/remote/remote-apply';
import { completeFromPatch } from '../../../src/host/node/remote/remote-change-set';
import { readGitPatch } from '../../../src/host/node/remote/remote-patch';
import { listingFromPatch } from '../../../src/host/node/remote/remote-patch-listing';

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });

function repository(dir: string): void {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'c.txt'), 'hello\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
}

/** The working tree's change against HEAD as the agent-server's git-delta archive writes it. */
function serverPatch(dir: string): string {
  const env = { ...process.env, GIT_INDEX_FILE: join(dir, '..', 'scratch-index') };
  execFileSync('git', ['read-tree', 'HEAD'], { cwd: dir, env });
  execFileSync('git', ['add', '-A', '--', '.'], { cwd: dir, env });
  return execFileSync('git', ['diff', '--binary', '--cached', 'HEAD', '--', '.'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
}

describe("the server's change list read from its git patch", () => {
  let root: string;
  beforeEach(() => {
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'remote-listing-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a path that changed kind is one UPDATED change; apply makes each symlink in the file’s place', () => {
    const server = join(root, 'server');
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

    const local = join(root, 'local');
    repository(local);
    const r = applyServerChanges(local, changes);
    assert.deepEqual(r.conflicts, []);
    assert.deepEqual(r.applied.sort(), ['a.txt', 'b.txt', 'c.txt']);
    assert.equal(readlinkSync(join(local, 'a.txt')), 'b.txt');
    assert.equal(readlinkSync(join(local, 'c.txt')), 'a.txt');
    assert.equal(readFileSync(join(local, 'b.txt'), 'utf8'), 'one\ntwo\nthree\n');

    // A file changed here is not replaced by the server's symlink: named, left as it is.
    const changed = join(root, 'changed');
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
