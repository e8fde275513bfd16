// A multi-root workspace's checkpoints: one store per folder behind one id. Recording, restoring,
// the preview's plan, file contents, comparisons between states and the lifecycle all cover every
// folder, with each path named by its folder; an id from before the second folder was added is the
// first folder's.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { MultiFolderCheckpointStore } from '../../../src/host/node/checkpoints/workspace-store';
import { treeHashes } from './tree-hash';

const CONV = 'conv-multi';

describe('MultiFolderCheckpointStore', function () {
  this.timeout(60_000);
  let root: string;
  let app: string;
  let lib: string;
  let single: GitCheckpointStore;
  let multi: MultiFolderCheckpointStore;

  const storeOf = (ws: string) =>
    new GitCheckpointStore({ workspace: ws, storeDir: storeDirFor(join(root, 'stores'), ws) });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-multi-'));
    app = join(root, 'app');
    lib = join(root, 'lib');
    mkdirSync(app);
    mkdirSync(lib);
    writeFileSync(join(app, 'main.ts'), 'app v1\n');
    writeFileSync(join(lib, 'util.ts'), 'lib v1\n');
    single = storeOf(app);
    multi = new MultiFolderCheckpointStore([
      { name: 'app', store: single },
      { name: 'lib', store: storeOf(lib) },
    ]);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('records and restores every folder, naming each path by its folder', async () => {
    const first = await multi.record({ conversationId: CONV, reason: 'action' });
    assert.equal(first.files, 2);
    const before = { app: treeHashes(app), lib: treeHashes(lib) };

    writeFileSync(join(app, 'main.ts'), 'app v2\n');
    writeFileSync(join(lib, 'util.ts'), 'lib v2\n');
    writeFileSync(join(lib, 'new.ts'), 'new\n');
    const second = await multi.record({ conversationId: CONV, reason: 'action' });
    assert.equal(second.filesChanged, 3);
    assert.deepEqual(second.changes.map((c) => `${c.status} ${c.path}`).sort(), [
      'A lib/new.ts',
      'M app/main.ts',
      'M lib/util.ts',
    ]);

    const plan = await multi.plan(first.id);
    assert.deepEqual(plan.changes.map((c) => `${c.status} ${c.path}`).sort(), [
      'D lib/new.ts',
      'M app/main.ts',
      'M lib/util.ts',
    ]);
    assert.equal(multi.absolutePath('lib/util.ts'), join(lib, 'util.ts'));
    assert.equal((await multi.fileAt(first.id, 'lib/util.ts'))?.toString(), 'lib v1\n');
    assert.equal(await multi.fileAt(first.id, 'lib/new.ts'), undefined);

    const restored = await multi.restore(first.id, CONV);
    assert.equal(restored.changes.length, 3);
    assert.deepEqual({ app: treeHashes(app), lib: treeHashes(lib) }, before);
    // The restore recorded the files before it: restoring that undoes it.
    await multi.restore(restored.before.id, CONV);
    assert.equal(readFileSync(join(lib, 'util.ts'), 'utf8'), 'lib v2\n');
    assert.ok(existsSync(join(lib, 'new.ts')));
  });

  it('compares recorded states across folders, and says which ids it cannot compare', async () => {
    const a = await multi.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(lib, 'util.ts'), 'edited by someone\n');
    const b = await multi.record({ conversationId: CONV, reason: 'action' });
    const r = await multi.changedBetween([{ from: a.id, to: b.id }]);
    assert.deepEqual([...r.paths], ['lib/util.ts']);
    assert.deepEqual(r.missing, []);
    const plan = await multi.planFrom(b.id, a.id);
    assert.deepEqual(
      plan.changes.map((c) => c.path),
      ['lib/util.ts'],
    );
    // A state of the first folder alone (recorded before the second was added) names no lib files.
    const r2 = await multi.changedBetween([
      { from: a.id, to: (await single.record({ conversationId: CONV, reason: 'action' })).id },
    ]);
    assert.equal(r2.missing.length, 1);
  });

  it('a checkpoint from before the second folder was added restores the first and leaves the other', async () => {
    const old = await single.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(app, 'main.ts'), 'app v2\n');
    writeFileSync(join(lib, 'util.ts'), 'lib v2\n');
    const plan = await multi.plan(old.id);
    assert.deepEqual(
      plan.changes.map((c) => c.path),
      ['app/main.ts'],
    );
    await multi.restore(old.id, CONV);
    assert.equal(readFileSync(join(app, 'main.ts'), 'utf8'), 'app v1\n');
    assert.equal(readFileSync(join(lib, 'util.ts'), 'utf8'), 'lib v2\n');
  });

  it('holds, adopts and releases in every folder', async () => {
    const rec = await multi.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await multi.held(CONV)).length, 2);
    await multi.adopt('fork', rec.id);
    assert.equal((await multi.held('fork')).length, 2);
    await multi.release(CONV);
    assert.equal((await multi.held(CONV)).length, 0);
    assert.equal(
      (await multi.fileAt(rec.id, 'app/main.ts'))?.toString(),
      'app v1\n',
      'the fork still holds it',
    );
  });

  it('refuses to restore a checkpoint holding a folder the window no longer has, naming it', async () => {
    const rec = await multi.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(app, 'main.ts'), 'app v2\n');
    const appOnly = new MultiFolderCheckpointStore([{ name: 'app', store: single }]);
    await assert.rejects(appOnly.plan(rec.id), /holds the files of "lib", not open in this window/);
    await assert.rejects(appOnly.restore(rec.id, CONV), /"lib", not open/);
    // A window of that one folder alone (a plain store) says the same kind of thing.
    await assert.rejects(single.plan(rec.id), /several folders \(recorded in a multi-root window\)/);
    assert.equal(readFileSync(join(app, 'main.ts'), 'utf8'), 'app v2\n', 'nothing restored');
  });

  it('rejects ids and paths that are not of this workspace, with a clear error', async () => {
    await assert.rejects(multi.plan('multi:not-json'), /not a checkpoint of this workspace/);
    assert.throws(() => multi.absolutePath('elsewhere/x.ts'), /in no folder of this workspace/);
  });

  it('keeps folder names apart: two folders of one name get their own', async () => {
    const other = join(root, 'other', 'app');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'x.ts'), 'x\n');
    const twice = new MultiFolderCheckpointStore([
      { name: 'app', store: single },
      { name: 'app', store: storeOf(other) },
    ]);
    await twice.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(other, 'x.ts'), 'x2\n');
    writeFileSync(join(app, 'main.ts'), 'app v2\n');
    const rec = await twice.record({ conversationId: CONV, reason: 'action' });
    assert.deepEqual(rec.changes.map((c) => c.path).sort(), ['app (2)/x.ts', 'app/main.ts']);
    assert.equal(twice.absolutePath('app (2)/x.ts'), join(other, 'x.ts'));
  });
});
