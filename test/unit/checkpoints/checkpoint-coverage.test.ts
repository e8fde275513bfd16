// Checkpoints hold what the agent may touch: ignored and untracked files within a budget, and a
// restore never loses a file that existed before it (what it cannot hold it leaves as it is).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { MultiFolderCheckpointStore } from '../../../src/host/node/checkpoints/workspace-store';
import { lostFiles, snapshotFiles } from '../../../src/host/node/checkpoints/restore-loss';
import { treeHashes } from './tree-hash';

const CONV = 'c1';

/** A command as the agent's shell would run it, in the workspace. */
function sh(cwd: string, script: string): void {
  execFileSync('sh', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd } });
}

describe('Checkpoint coverage', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let store: GitCheckpointStore;
  const storeWith = (limits = {}, exclude: string[] = []) =>
    new GitCheckpointStore({
      workspace: ws,
      storeDir: storeDirFor(join(root, 'stores'), ws),
      limits,
      exclude,
    });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-cover-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    store = storeWith();
    writeFileSync(join(ws, '.gitignore'), '.env.local\ndist/\nnode_modules/\n*.log\n');
    writeFileSync(join(ws, 'index.js'), 'console.log(1);\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a .gitignored file a shell command overwrites comes back on restore', async () => {
    writeFileSync(join(ws, '.env.local'), 'TOKEN=mine\n');
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    sh(ws, 'echo TOKEN=agent > .env.local');
    await store.restore(first.id, CONV);
    assert.equal(readFileSync(join(ws, '.env.local'), 'utf8'), 'TOKEN=mine\n');
  });

  it('rm -rf of an ignored build folder, and git clean -fdx, are undone by a restore', async () => {
    mkdirSync(join(ws, 'dist', 'js'), { recursive: true });
    writeFileSync(join(ws, 'dist', 'js', 'app.js'), 'built\n');
    writeFileSync(join(ws, 'debug.log'), 'log\n');
    writeFileSync(join(ws, 'notes.txt'), 'untracked\n');
    const wanted = treeHashes(ws);
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    sh(ws, 'rm -rf dist');
    await store.restore(first.id, CONV);
    assert.deepEqual(treeHashes(ws), wanted);
    execFileSync('git', ['init', '-q'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: root } });
    sh(ws, 'git clean -fdxq');
    assert.ok(!existsSync(join(ws, 'notes.txt')));
    await store.restore(first.id, CONV);
    assert.deepEqual(treeHashes(ws), wanted);
  });

  it('files created after the checkpoint, ignored or not, come back when the restore is undone', async () => {
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(ws, '.env.local'), 'made later\n');
    writeFileSync(join(ws, 'later.txt'), 'made later\n');
    const wanted = treeHashes(ws);
    const r = await store.restore(first.id, CONV);
    await store.restore(r.before.id, CONV);
    assert.deepEqual(treeHashes(ws), wanted);
  });

  it('a restore of a restore puts back each state, ignored files included', async () => {
    writeFileSync(join(ws, '.env.local'), 'v1\n');
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    sh(ws, 'echo v2 > .env.local && echo more > dist.txt');
    const second = treeHashes(ws);
    const r1 = await store.restore(first.id, CONV);
    assert.equal(readFileSync(join(ws, '.env.local'), 'utf8'), 'v1\n');
    writeFileSync(join(ws, '.env.local'), 'v3\n');
    const third = treeHashes(ws);
    const r2 = await store.restore(r1.before.id, CONV);
    assert.deepEqual(treeHashes(ws), second);
    await store.restore(r2.before.id, CONV);
    assert.deepEqual(treeHashes(ws), third);
  });

  it('a file that grew past the size cap is left as it is, not overwritten by its older held version', async () => {
    const small = storeWith({ maxFileBytes: 1000 });
    writeFileSync(join(ws, 'data.csv'), 'x'.repeat(500));
    const first = await small.record({ conversationId: CONV, reason: 'action' });
    writeFileSync(join(ws, 'data.csv'), 'y'.repeat(5000));
    const plan = await small.plan(first.id);
    assert.deepEqual(plan.changes, []);
    const r = await small.restore(first.id, CONV);
    assert.deepEqual(r.changes, []);
    assert.equal(readFileSync(join(ws, 'data.csv'), 'utf8'), 'y'.repeat(5000));
  });

  it('a folder over the budget is not held, is named once in the coverage, and a restore leaves it be', async () => {
    const budget = storeWith({ maxIgnoredFiles: 20, maxIgnoredBytes: 1_000_000, maxFileBytes: 1000 }, [
      'secrets/',
    ]);
    for (let i = 0; i < 30; i++) {
      mkdirSync(join(ws, 'node_modules', `p${i}`), { recursive: true });
      writeFileSync(join(ws, 'node_modules', `p${i}`, 'index.js'), `module.exports = ${i};\n`);
    }
    mkdirSync(join(ws, 'dist'));
    writeFileSync(join(ws, 'dist', 'a.js'), 'a\n');
    mkdirSync(join(ws, 'secrets'));
    writeFileSync(join(ws, 'secrets', 'key'), 'k\n');
    writeFileSync(join(ws, 'huge.bin'), 'h'.repeat(2000));
    const cov = await budget.coverage();
    assert.ok(cov);
    assert.deepEqual(cov.roots, [ws]);
    assert.deepEqual(
      [...cov.unheld].sort((a, b) => (a.path < b.path ? -1 : 1)),
      [
        { path: join(ws, 'huge.bin'), why: 'too-large' },
        { path: join(ws, 'node_modules') + '/', why: 'over-budget' },
        { path: join(ws, 'secrets') + '/', why: 'excluded' },
      ],
    );
    const first = await budget.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await budget.coverage())?.latest, first.id);
    assert.equal(await budget.fileAt(first.id, 'node_modules/p0/index.js'), undefined);
    assert.equal((await budget.fileAt(first.id, 'dist/a.js'))?.toString(), 'a\n');
    writeFileSync(join(ws, 'node_modules', 'p0', 'index.js'), 'changed\n');
    writeFileSync(join(ws, 'dist', 'a.js'), 'changed\n');
    await budget.restore(first.id, CONV);
    assert.equal(readFileSync(join(ws, 'node_modules', 'p0', 'index.js'), 'utf8'), 'changed\n');
    assert.equal(readFileSync(join(ws, 'dist', 'a.js'), 'utf8'), 'a\n');
  });

  it('a held folder that grows over the budget leaves the next checkpoint, and a restore keeps its files', async () => {
    const budget = storeWith({ maxIgnoredFiles: 5 });
    mkdirSync(join(ws, 'dist'));
    writeFileSync(join(ws, 'dist', 'a.js'), 'a1\n');
    const first = await budget.record({ conversationId: CONV, reason: 'action' });
    for (let i = 0; i < 10; i++) writeFileSync(join(ws, 'dist', `b${i}.js`), 'b\n');
    writeFileSync(join(ws, 'dist', 'a.js'), 'a2\n');
    const second = await budget.record({ conversationId: CONV, reason: 'action' });
    assert.equal(await budget.fileAt(second.id, 'dist/a.js'), undefined);
    assert.deepEqual((await budget.coverage())?.unheld, [
      { path: join(ws, 'dist') + '/', why: 'over-budget' },
    ]);
    await budget.restore(first.id, CONV);
    assert.equal(readFileSync(join(ws, 'dist', 'a.js'), 'utf8'), 'a2\n');
    assert.ok(existsSync(join(ws, 'dist', 'b9.js')));
  });

  it('a folder the checkpoint could not hold (over the budget then) is not deleted by a restore to it', async () => {
    const budget = storeWith({ maxIgnoredFiles: 5 });
    mkdirSync(join(ws, 'dist'));
    for (let i = 0; i < 10; i++) writeFileSync(join(ws, 'dist', `b${i}.js`), 'b\n');
    const first = await budget.record({ conversationId: CONV, reason: 'action' });
    for (let i = 0; i < 8; i++) rmSync(join(ws, 'dist', `b${i}.js`));
    const wanted = treeHashes(ws);
    const second = await budget.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await budget.fileAt(second.id, 'dist/b9.js'))?.toString(), 'b\n', 'held now');
    const plan = await budget.plan(first.id);
    assert.deepEqual(plan.changes, []);
    await budget.restore(first.id, CONV);
    assert.deepEqual(treeHashes(ws), wanted);
  });

  it('a checkpoint recorded before ignored files were held: a restore to it leaves them be', async () => {
    writeFileSync(join(ws, '.env.local'), 'mine\n');
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    const rec = await store.record({ conversationId: CONV, reason: 'action' });
    // The same files as an older store recorded them: no ignored file, no trailer in the message.
    const gitDir = join(store.storeDir, 'git');
    const git = (args: string[], input?: string) =>
      execFileSync('git', ['--git-dir', gitDir, ...args], {
        input,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: root,
          GIT_AUTHOR_NAME: 'L',
          GIT_AUTHOR_EMAIL: 'l@x',
          GIT_COMMITTER_NAME: 'L',
          GIT_COMMITTER_EMAIL: 'l@x',
        },
      })
        .toString()
        .trim();
    const entries = git(['ls-tree', rec.id])
      .split('\n')
      .filter((l) => !l.endsWith('\t.env.local'))
      .join('\n');
    const legacy = git(['commit-tree', git(['mktree'], entries + '\n'), '-m', 'action'], undefined);
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    writeFileSync(join(ws, '.env.local'), 'changed\n');
    const r = await store.restore(legacy, CONV);
    assert.deepEqual(
      r.changes.map((c) => `${c.status} ${c.path}`),
      ['M a.txt'],
    );
    assert.equal(readFileSync(join(ws, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(ws, '.env.local'), 'utf8'), 'changed\n');
  });

  it('an ignored folder over the budget whose name has a line break cannot leave out everything else', async () => {
    const budget = storeWith({ maxIgnoredFiles: 5 });
    writeFileSync(join(ws, '.gitignore'), 'build*/\n');
    const odd = 'build\n*';
    mkdirSync(join(ws, odd));
    for (let i = 0; i < 10; i++) writeFileSync(join(ws, odd, `f${i}`), 'x');
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'main.js'), 'main\n');
    const rec = await budget.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await budget.fileAt(rec.id, 'src/main.js'))?.toString(), 'main\n');
    assert.equal(await budget.fileAt(rec.id, `${odd}/f0`), undefined);
    assert.deepEqual((await budget.coverage())?.unheld, [{ path: join(ws, odd) + '/', why: 'over-budget' }]);
  });

  it('the multi-folder store joins its folders coverage', async () => {
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'big'), 'b'.repeat(50));
    const multi = new MultiFolderCheckpointStore([
      { name: 'ws', store },
      {
        name: 'other',
        store: new GitCheckpointStore({
          workspace: other,
          storeDir: storeDirFor(join(root, 'stores'), other),
          limits: { maxFileBytes: 10 },
        }),
      },
    ]);
    const cov = await multi.coverage();
    assert.deepEqual(cov, { roots: [ws, other], unheld: [{ path: join(other, 'big'), why: 'too-large' }] });
    const rec = await multi.record({ conversationId: CONV, reason: 'action' });
    assert.equal((await multi.coverage())?.latest, rec.id);
  });

  it('lostFiles names what a restore lost: gone or changed since before the first action', async () => {
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    writeFileSync(join(ws, 'b.txt'), 'b\n');
    const before = snapshotFiles(ws);
    writeFileSync(join(ws, 'a.txt'), 'changed\n');
    rmSync(join(ws, 'b.txt'));
    writeFileSync(join(ws, 'c.txt'), 'new\n');
    assert.deepEqual(lostFiles(before, snapshotFiles(ws)), { gone: ['b.txt'], changed: ['a.txt'] });
    assert.deepEqual(lostFiles(before, before), { gone: [], changed: [] });
  });
});
