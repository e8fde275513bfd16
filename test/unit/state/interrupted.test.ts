// Readers that find no live writer report a log left `running` as paused and interrupted.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, hasLiveWriter } from '../../../src/core/log';
import { EXECUTION_STATUSES } from '../../../src/core/state/transitions';
import { INTERRUPTED_REASON, statusForReader } from '../../../src/core/state';

describe('a reader of a log nobody writes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'logbook-writer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const lockNaming = (pid: number, host = hostname()) =>
    writeFileSync(
      join(dir, 'LOCK'),
      JSON.stringify({ pid, hostname: host, startedAt: new Date().toISOString(), token: 'dead-writer' }),
    );

  it('finds a live writer only while a live process holds the lock', () => {
    assert.equal(hasLiveWriter(dir), false, 'no lock');
    const held = acquireLock(dir);
    assert.ok(held.acquired);
    assert.equal(hasLiveWriter(dir), true, 'held by this process');
    held.lock.release();
    assert.equal(hasLiveWriter(dir), false, 'released');

    // What kill -9 leaves: a lock naming a process that is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    lockNaming(dead);
    assert.equal(hasLiveWriter(dir), false, 'its writer is dead');
    lockNaming(process.ppid);
    assert.equal(hasLiveWriter(dir), true, 'another live process on this host');
    lockNaming(dead, 'some-other-host');
    assert.equal(hasLiveWriter(dir), true, "another host's processes cannot be seen: assumed live");
  });

  it('reports running without a live writer as paused and interrupted, everything else as it is', () => {
    assert.deepEqual(statusForReader('running', false), {
      status: 'paused',
      interrupted: INTERRUPTED_REASON,
    });
    assert.match(INTERRUPTED_REASON, /the process that ran it is gone/);
    for (const status of EXECUTION_STATUSES) {
      assert.deepEqual(statusForReader(status, true), { status, interrupted: null });
      if (status !== 'running')
        assert.deepEqual(statusForReader(status, false), { status, interrupted: null });
    }
  });
});
