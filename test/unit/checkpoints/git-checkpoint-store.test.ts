import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointUnavailableError, RestoreFailedError } from '../../../src/core/checkpoints/types';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { folderHash, treeHashes } from './tree-hash';

const CONV = 'c1';

/** git in the user's own repository, as the user would run it. */
function userGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=U', '-c', 'user.email=u@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

describe('GitCheckpointStore', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let store: GitCheckpointStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-ckpt-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    store = new GitCheckpointStore({ workspace: ws, storeDir: storeDirFor(join(root, 'stores'), ws) });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('restores each checkpoint byte for byte: creates, edits, deletes, renames, modes and links', async function () {
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'main.ts'), 'export {};\n');
    writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\necho hi\n');
    const states: { id: string; tree: Map<string, string> }[] = [];
    const snap = async (): Promise<void> => {
      const rec = await store.record({ conversationId: CONV, reason: 'action' });
      states.push({ id: rec.id, tree: treeHashes(ws) });
    };
    await snap();
    assert.equal(states[0]!.tree.size, 3);

    writeFileSync(join(ws, 'a.txt'), 'two\n');
    chmodSync(join(ws, 'run.sh'), 0o755);
    writeFileSync(join(ws, 'new.bin'), Buffer.from([0, 1, 2, 255, 13, 10]));
    await snap();

    renameSync(join(ws, 'src', 'main.ts'), join(ws, 'src', 'index.ts'));
    rmSync(join(ws, 'a.txt'));
    symlinkSync('src/index.ts', join(ws, 'link'));
    mkdirSync(join(ws, 'deep', 'er'), { recursive: true });
    writeFileSync(join(ws, 'deep', 'er', 'x.txt'), 'x');
    await snap();

    // A file becomes a folder and a folder a file.
    rmSync(join(ws, 'new.bin'));
    mkdirSync(join(ws, 'new.bin'));
    writeFileSync(join(ws, 'new.bin', 'inner'), 'inner');
    rmSync(join(ws, 'deep'), { recursive: true });
    writeFileSync(join(ws, 'deep'), 'now a file');
    const last = treeHashes(ws);

    for (const s of [...states].reverse()) {
      await store.restore(s.id, CONV);
      assert.deepEqual(treeHashes(ws), s.tree, `restored ${s.id}`);
    }
    assert.ok(!existsSync(join(ws, 'deep')), 'a folder the restore emptied is gone');
    // The first restore recorded the final state first: back to it.
    const held = await store.held(CONV);
    for (const s of states) assert.ok(held.includes(s.id));
    const finalState = held[held.length - 1 - states.length];
    assert.ok(finalState);
    await store.restore(finalState, CONV);
    assert.deepEqual(treeHashes(ws), last);
  });

  it('a restore records the state before it, so it can be undone', async () => {
    writeFileSync(join(ws, 'f.txt'), 'v1');
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(ws, 'f.txt'), 'v2');
    writeFileSync(join(ws, 'g.txt'), 'g');
    const before = treeHashes(ws);
    const r = await store.restore(first.id, CONV);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'v1');
    assert.ok(!existsSync(join(ws, 'g.txt')));
    assert.deepEqual(
      r.changes.map((c) => `${c.status} ${c.path}`),
      ['M f.txt', 'D g.txt'],
    );
    await store.restore(r.before.id, CONV);
    assert.deepEqual(treeHashes(ws), before);
  });

  for (const [kind, target] of [
    ['outside the workspace', (root: string) => join(root, 'elsewhere')],
    ['inside the workspace', () => 'other'],
    ['nowhere (dangling)', (root: string) => join(root, 'nowhere')],
  ] as const) {
    it(`a folder that became a symlink ${kind}: recorded as the link, restored as the folder, nothing written through it`, async () => {
      mkdirSync(join(ws, 'src'));
      writeFileSync(join(ws, 'src', 'a.txt'), 'one\n');
      mkdirSync(join(ws, 'other'));
      writeFileSync(join(ws, 'other', 'b.txt'), 'b\n');
      const first = await store.record({ conversationId: CONV, reason: 'action' });
      const wanted = treeHashes(ws);
      mkdirSync(join(root, 'elsewhere'));
      writeFileSync(join(root, 'elsewhere', 'a.txt'), 'not ours\n');
      rmSync(join(ws, 'src'), { recursive: true });
      symlinkSync(target(root), join(ws, 'src'));
      // Recording sees the link, not the files where it leads.
      const now = await store.record({ conversationId: CONV, reason: 'action' });
      assert.deepEqual(now.changes.map((c) => `${c.status} ${c.path}`).sort(), ['A src', 'D src/a.txt']);
      const r = await store.restore(first.id, CONV);
      assert.deepEqual(
        r.changes.map((c) => `${c.status} ${c.path}`),
        ['D src', 'A src/a.txt'],
      );
      assert.deepEqual(treeHashes(ws), wanted);
      assert.equal(readFileSync(join(root, 'elsewhere', 'a.txt'), 'utf8'), 'not ours\n');
      assert.equal(readFileSync(join(ws, 'other', 'b.txt'), 'utf8'), 'b\n');
    });
  }

  it('a restore that fails part way says why in words and keeps the state before it for the way back', async () => {
    writeFileSync(join(ws, 'f.txt'), 'v1');
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(ws, 'f.txt'), 'v2');
    // Another process holds the scratch index the restore writes with.
    const lock = join(storeDirFor(join(root, 'stores'), ws), 'restore-index.lock');
    writeFileSync(lock, '');
    const err = await store.restore(first.id, CONV).then(
      () => assert.fail('the restore should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof RestoreFailedError, String(err));
    assert.match(
      err.message,
      /^The files could not all be put back: Unable to create '.*restore-index\.lock': File exists\./,
    );
    assert.match(
      err.message,
      new RegExp(`kept in checkpoint ${err.before.id.slice(0, 12)}: restore it to go back to them\\.$`),
    );
    assert.doesNotMatch(err.message, /fatal:|error:|\n/);
    rmSync(lock);
    writeFileSync(join(ws, 'f.txt'), 'v3');
    await store.restore(err.before.id, CONV);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'v2');
  });

  it('reports what changed since the previous checkpoint, renames included', async () => {
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}.txt`), `content of file ${i}\n`.repeat(20));
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    assert.equal(first.files, 5);
    assert.equal(first.filesChanged, 5);
    renameSync(join(ws, 'f0.txt'), join(ws, 'moved.txt'));
    writeFileSync(join(ws, 'f1.txt'), 'changed');
    rmSync(join(ws, 'f2.txt'));
    const second = await store.record({ conversationId: CONV, reason: 'action' });
    assert.deepEqual(
      second.changes.map((c) => `${c.status} ${c.from ? `${c.from} -> ` : ''}${c.path}`).sort(),
      ['D f2.txt', 'M f1.txt', 'R f0.txt -> moved.txt'],
    );
    assert.equal(second.files, 4);
    const same = await store.record({ conversationId: CONV, reason: 'action' });
    assert.equal(same.id, second.id, 'nothing changed: the same checkpoint');
    assert.equal(same.filesChanged, 0);
  });

  it("never touches the user's repository: .git is byte for byte the same, also with GIT_* in the environment", async () => {
    writeFileSync(join(ws, 'tracked.txt'), 'tracked\n');
    writeFileSync(join(ws, '.gitignore'), 'ignored.txt\n');
    userGit(ws, 'init', '-q');
    userGit(ws, 'add', '.');
    userGit(ws, 'commit', '-qm', 'first');
    writeFileSync(join(ws, 'tracked.txt'), 'edited, not staged\n');
    userGit(ws, 'stash', '-q');
    writeFileSync(join(ws, 'staged.txt'), 'staged\n');
    userGit(ws, 'add', 'staged.txt');
    writeFileSync(join(ws, 'ignored.txt'), 'ignored');
    const gitBefore = folderHash(join(ws, '.git'));
    const statusBefore = userGit(ws, 'status', '--porcelain');
    const saved = { ...process.env };
    // An environment that would point a careless git call at the user's repository.
    Object.assign(process.env, {
      GIT_DIR: join(ws, '.git'),
      GIT_INDEX_FILE: join(ws, '.git', 'index'),
      GIT_WORK_TREE: ws,
    });
    try {
      const rec = await store.record({ conversationId: CONV, reason: 'action' });
      writeFileSync(join(ws, 'later.txt'), 'later');
      await store.record({ conversationId: CONV, reason: 'action' });
      await store.restore(rec.id, CONV);
      assert.ok(!existsSync(join(ws, 'later.txt')));
      assert.equal(
        (await store.fileAt(rec.id, 'ignored.txt'))?.toString(),
        'ignored',
        'ignored files are held',
      );
      assert.equal((await store.fileAt(rec.id, 'staged.txt'))?.toString(), 'staged\n');
    } finally {
      for (const k of ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_WORK_TREE']) delete process.env[k];
      Object.assign(process.env, saved);
    }
    assert.equal(folderHash(join(ws, '.git')), gitBefore, 'the .git folder is unchanged');
    assert.equal(userGit(ws, 'status', '--porcelain'), statusBefore);
    assert.match(userGit(ws, 'stash', 'list'), /stash@\{0\}/);
    assert.equal(readFileSync(join(ws, 'ignored.txt'), 'utf8'), 'ignored');
  });

  it('records a nested repository and a submodule as files, and leaves their .git alone', async () => {
    const nested = join(ws, 'vendor', 'lib');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, 'lib.c'), 'int x;\n');
    writeFileSync(join(nested, '.gitignore'), '*.o\n');
    writeFileSync(join(nested, 'lib.o'), 'object');
    userGit(nested, 'init', '-q');
    userGit(nested, 'add', '.');
    userGit(nested, 'commit', '-qm', 'lib');
    // A submodule-like folder: .git is a file pointing elsewhere.
    const sub = join(ws, 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, '.git'), 'gitdir: ../elsewhere\n');
    writeFileSync(join(sub, 'mod.txt'), 'module file');
    const nestedGit = folderHash(join(nested, '.git'));
    const rec = await store.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await store.fileAt(rec.id, 'vendor/lib/lib.c'))?.toString(), 'int x;\n');
    assert.equal((await store.fileAt(rec.id, 'sub/mod.txt'))?.toString(), 'module file');
    assert.equal(
      (await store.fileAt(rec.id, 'vendor/lib/lib.o'))?.toString(),
      'object',
      'ignored files are held',
    );
    assert.equal(await store.fileAt(rec.id, 'vendor/lib/.git/HEAD'), undefined);
    const tree = treeHashes(ws);
    writeFileSync(join(nested, 'lib.c'), 'int y;\n');
    writeFileSync(join(nested, 'new.c'), 'new');
    rmSync(join(sub, 'mod.txt'));
    const second = await store.record({ conversationId: CONV, reason: 'action' });
    assert.deepEqual(second.changes.map((c) => `${c.status} ${c.path}`).sort(), [
      'A vendor/lib/new.c',
      'D sub/mod.txt',
      'M vendor/lib/lib.c',
    ]);
    await store.restore(rec.id, CONV);
    assert.deepEqual(treeHashes(ws), tree);
    assert.equal(folderHash(join(nested, '.git')), nestedGit);
    assert.equal(readFileSync(join(sub, '.git'), 'utf8'), 'gitdir: ../elsewhere\n');
  });

  it('skips files over the size cap, says which, and leaves them be on restore (never their older version)', async () => {
    const small = new GitCheckpointStore({
      workspace: ws,
      storeDir: storeDirFor(join(root, 'stores'), ws),
      limits: { maxFileBytes: 1000 },
    });
    writeFileSync(join(ws, 'small.txt'), 'x'.repeat(1000));
    writeFileSync(join(ws, 'big.bin'), 'y'.repeat(1001));
    const rec = await small.record({ conversationId: CONV, reason: 'action' });
    assert.deepEqual(rec.skipped, [{ path: 'big.bin', size: 1001 }]);
    assert.equal(await small.fileAt(rec.id, 'big.bin'), undefined);
    // A recorded file that grows past the cap leaves the next checkpoint, and a restore keeps it:
    // writing the version held before over it would lose what no checkpoint holds.
    writeFileSync(join(ws, 'small.txt'), 'z'.repeat(2000));
    const second = await small.record({ conversationId: CONV, reason: 'action' });
    assert.deepEqual(
      second.skipped.map((s) => s.path),
      ['big.bin', 'small.txt'],
    );
    assert.equal(await small.fileAt(second.id, 'small.txt'), undefined);
    await small.restore(rec.id, CONV);
    assert.equal(readFileSync(join(ws, 'big.bin'), 'utf8'), 'y'.repeat(1001));
    assert.equal(readFileSync(join(ws, 'small.txt'), 'utf8'), 'z'.repeat(2000));
  });

  it('honours the exclude setting and never records .logbook', async () => {
    const ex = new GitCheckpointStore({
      workspace: ws,
      storeDir: storeDirFor(join(root, 'stores'), ws),
      exclude: ['build/', '*.tmp'],
    });
    mkdirSync(join(ws, 'build'));
    writeFileSync(join(ws, 'build', 'out.js'), 'built');
    writeFileSync(join(ws, 'scratch.tmp'), 'tmp');
    mkdirSync(join(ws, '.logbook', 'conversations'), { recursive: true });
    writeFileSync(join(ws, '.logbook', 'conversations', 'log'), 'log');
    writeFileSync(join(ws, 'kept.txt'), 'kept');
    const rec = await ex.record({ conversationId: CONV, reason: 'action' });
    assert.equal(rec.files, 1);
    writeFileSync(join(ws, 'build', 'out.js'), 'rebuilt');
    await ex.restore(rec.id, CONV);
    assert.equal(readFileSync(join(ws, 'build', 'out.js'), 'utf8'), 'rebuilt');
    assert.equal(readFileSync(join(ws, '.logbook', 'conversations', 'log'), 'utf8'), 'log');
  });

  it("keeps bytes exact whatever the workspace's .gitattributes say", async () => {
    writeFileSync(join(ws, '.gitattributes'), '* text eol=crlf\n*.txt filter=lfs\n');
    writeFileSync(join(ws, 'unix.txt'), 'a\nb\n');
    writeFileSync(join(ws, 'dos.txt'), 'a\r\nb\r\n');
    const tree = treeHashes(ws);
    const rec = await store.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(ws, 'unix.txt'), 'changed');
    writeFileSync(join(ws, 'dos.txt'), 'changed');
    await store.restore(rec.id, CONV);
    assert.deepEqual(treeHashes(ws), tree);
  });

  it('a workspace folder that is gone is named as gone, not as git missing', async () => {
    writeFileSync(join(ws, 'a.txt'), 'one');
    const rec = await store.record({ conversationId: CONV, reason: 'action' });
    rmSync(ws, { recursive: true, force: true });
    const gone = (e: unknown) =>
      e instanceof CheckpointUnavailableError && /no longer exists/.test(e.message) && !/git/.test(e.message);
    await assert.rejects(store.plan(rec.id), gone);
    await assert.rejects(store.restore(rec.id, CONV), gone);
    await assert.rejects(store.record({ conversationId: CONV, reason: 'action' }), gone);
  });

  it('a workspace too large to checkpoint fails with a clear reason', async () => {
    const tiny = new GitCheckpointStore({
      workspace: ws,
      storeDir: storeDirFor(join(root, 'stores'), ws),
      limits: { maxFiles: 3 },
    });
    for (let i = 0; i < 5; i++) writeFileSync(join(ws, `f${i}`), String(i));
    await assert.rejects(
      tiny.record({ conversationId: CONV, reason: 'action' }),
      (e: unknown) =>
        e instanceof CheckpointUnavailableError &&
        /5 files.*more than checkpoints take \(3\)/.test(e.message),
    );
  });

  it("records after-states on a chain of their own: the checkpoints' chain and change lists stay as they were", async () => {
    writeFileSync(join(ws, 'a.txt'), 'one');
    const before1 = await store.record({ conversationId: CONV, reason: 'action', actionId: 'x1' });
    writeFileSync(join(ws, 'a.txt'), 'two');
    writeFileSync(join(ws, 'b.txt'), 'new');
    const after1 = await store.record({ conversationId: CONV, reason: 'after', actionId: 'x1' });
    assert.deepEqual(
      after1.changes.map((c) => `${c.status} ${c.path}`),
      ['M a.txt', 'A b.txt'],
      'what the action changed',
    );
    const before2 = await store.record({ conversationId: CONV, reason: 'action', actionId: 'x2' });
    assert.equal(before2.filesChanged, 2, 'counted from the checkpoint before, as without after-states');
    const after2 = await store.record({ conversationId: CONV, reason: 'after', actionId: 'x2' });
    assert.equal(after2.id, before2.id, 'an action that changed nothing: the checkpoint before it again');
    assert.equal(after2.filesChanged, 0);
    assert.deepEqual(await store.held(CONV), [before2.id, before1.id]);
    const afterRef = join(store.storeDir, 'git', 'refs', 'logbook', 'after', CONV);
    assert.equal(readFileSync(afterRef, 'utf8').trim(), after1.id);
    assert.equal((await store.fileAt(after1.id, 'a.txt'))?.toString(), 'two');
    // What the first action changed, from its after-state: the files now do not matter.
    writeFileSync(join(ws, 'c.txt'), 'the user, later');
    assert.deepEqual(
      (await store.planFrom(after1.id, before1.id)).changes.map((c) => `${c.status} ${c.path}`),
      ['M a.txt', 'D b.txt'],
    );

    // A fork adopts the newest after-state too; releasing a conversation lets go of both chains.
    await store.adopt('fork', before2.id, after1.id);
    assert.equal(
      readFileSync(join(store.storeDir, 'git', 'refs', 'logbook', 'after', 'fork'), 'utf8').trim(),
      after1.id,
    );
    await store.release(CONV);
    assert.ok(!existsSync(afterRef));
  });

  it("deleting one conversation's checkpoints keeps another's, and what they share", async () => {
    writeFileSync(join(ws, 'shared.txt'), 'shared');
    const a = await store.record({ conversationId: 'a', reason: 'action' });
    const b = await store.record({ conversationId: 'b', reason: 'action' });
    writeFileSync(join(ws, 'shared.txt'), 'later');
    await store.release('a');
    assert.deepEqual(await store.held('a'), []);
    assert.deepEqual(await store.held('b'), [b.id]);
    await store.restore(b.id, 'b');
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'shared');
    assert.ok(await store.fileAt(a.id, 'shared.txt'), "b's checkpoint keeps the object a used too");
  });

  it("a fork that adopts its parent's checkpoint keeps it after the parent is released", async () => {
    writeFileSync(join(ws, 'f.txt'), 'v1');
    const parent = await store.record({ conversationId: 'parent', reason: 'action' });
    await store.adopt('fork', parent.id);
    writeFileSync(join(ws, 'f.txt'), 'v2');
    const next = await store.record({ conversationId: 'fork', reason: 'action' });
    assert.deepEqual(
      await store.held('fork'),
      [next.id, parent.id],
      "the fork's chain starts at the adopted one",
    );
    await store.release('parent');
    assert.ok((await store.held('fork')).includes(parent.id), 'still reachable through the fork');
    await store.restore(parent.id, 'fork');
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'v1');
  });

  it('refuses a store inside the workspace', () => {
    assert.throws(
      () => new GitCheckpointStore({ workspace: ws, storeDir: join(ws, '.cache', 'ckpt') }),
      /must be outside the workspace/,
    );
  });
});
