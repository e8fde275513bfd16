// A process that dies while building the checkpoint store leaves its build folder
// (`git.<pid>.<hex>.init`) beside the store: the next opener removes it, and never a folder whose
// maker may still be working on it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { ABANDONED_BUILD_AGE_MS, BUILD_GRACE_MS } from '../../../src/host/node/checkpoints/store-init';

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('checkpoint store: build folders left by a process that died', function () {
  this.timeout(60_000);
  let root: string;
  let ws: string;
  let storeDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'logbook-leftovers-'));
    ws = join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    storeDir = storeDirFor(join(root, 'stores'), ws);
    mkdirSync(storeDir, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A build folder as a `git init` that stopped part way leaves it. */
  const leaveBuild = (name: string, ageMs = 0): string => {
    const folder = join(storeDir, name);
    mkdirSync(join(folder, 'objects'), { recursive: true });
    writeFileSync(join(folder, 'HEAD'), 'ref: refs/heads/master\n');
    const when = (Date.now() - ageMs) / 1000;
    utimesSync(folder, when, when);
    return folder;
  };

  const open = (dir = storeDir) =>
    new GitCheckpointStore({ workspace: ws, storeDir: dir }).record({
      conversationId: 'c1',
      reason: 'action',
    });

  it("removes a dead process's build folder, whether the store is made by this opener or was there already", async () => {
    const first = leaveBuild(`git.${deadPid()}.0a1b2c3d.init`, BUILD_GRACE_MS + 60_000);
    await open();
    assert.equal(existsSync(first), false, 'left beside a store that did not exist yet');
    const second = leaveBuild(`git.${deadPid()}.4e5f6a7b.init`, BUILD_GRACE_MS + 60_000);
    await open();
    assert.equal(existsSync(second), false, 'left beside a finished store');
    assert.deepEqual(readdirSync(storeDir).sort(), ['git', 'index']);
  });

  it("keeps a live process's build folder while it is young, and removes it once too old to be in the making", async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      // Past the grace a folder of a dead pid gets, so only the pid being alive keeps these.
      const live = [process.pid, sleeper.pid!].map((pid) =>
        leaveBuild(`git.${pid}.0a1b2c3d.init`, BUILD_GRACE_MS + 60_000),
      );
      const reused = leaveBuild(`git.${sleeper.pid!}.99999999.init`, ABANDONED_BUILD_AGE_MS + 60_000);
      await open();
      for (const folder of live) assert.equal(existsSync(folder), true, folder);
      assert.equal(existsSync(reused), false, 'a pid alive now, on a folder older than any build');
    } finally {
      sleeper.kill();
    }
  });

  it('keeps a young build folder whose pid is not alive here: its maker may be a process this one cannot see', async () => {
    const young = leaveBuild(`git.${deadPid()}.0a1b2c3d.init`, 10_000);
    await open();
    assert.equal(existsSync(young), true);
  });

  it('leaves folders that only look alike: another store, another name, no pid', async () => {
    const others = [
      `tig.${deadPid()}.0a1b2c3d.init`,
      `git.${deadPid()}.0a1b2c3d.init.keep`,
      'git.notapid.0a1b2c3d.init',
      `git.0.0a1b2c3d.init`,
    ].map((name) => leaveBuild(name, ABANDONED_BUILD_AGE_MS + 60_000));
    await open();
    for (const folder of others) assert.equal(existsSync(folder), true, folder);
  });
});
