// A bulk import's snapshots (deferSnapshotSyncs): written without a sync each, then synced together,
// files and folder, when the store closes, so they are all on disk before the import reports success.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SegmentEventStore } from '../../../src/core/log';
import { cleanupTmp, ev, tmpDir, type TestEvent } from './helpers';

/** Runs `f` counting the fsyncs it makes, blocking or through a FileHandle (each still made). */
async function countingFsyncs<T>(f: () => Promise<T>): Promise<{ result: T; fsyncs: number }> {
  const real = fs.fsyncSync;
  const probe = await fs.promises.open(__filename, 'r');
  const handle = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const realSync = handle.sync;
  let fsyncs = 0;
  fs.fsyncSync = (fd: number) => {
    fsyncs++;
    real(fd);
  };
  handle.sync = function (this: unknown) {
    fsyncs++;
    return realSync.call(this);
  };
  try {
    return { result: await f(), fsyncs };
  } finally {
    fs.fsyncSync = real;
    handle.sync = realSync;
  }
}

async function tenEvents(dir: string, deferSnapshotSyncs: boolean) {
  const s = await SegmentEventStore.open<TestEvent>(dir, { deferSnapshotSyncs, keepAllSnapshots: true });
  for (let i = 0; i < 10; i++) await s.append(ev(`e${i}`), { durable: i === 9 });
  return s;
}

describe('segment log: deferred snapshot syncs', () => {
  afterEach(cleanupTmp);

  it('each ordinary snapshot is synced as it is written', async () => {
    const s = await tenEvents(tmpDir('snap'), false);
    const { fsyncs } = await countingFsyncs(async () => {
      await s.writeSnapshot(4, '{"a":4}');
      await s.writeSnapshot(9, '{"a":9}');
    });
    assert.ok(fsyncs >= 4, `${fsyncs} fsyncs`);
    await s.close();
  });

  it('a deferred snapshot is written without a sync, served at once, and synced at close', async () => {
    const dir = tmpDir('snap');
    const s = await tenEvents(dir, true);
    const written = await countingFsyncs(async () => {
      await s.writeSnapshot(4, '{"a":4}');
      await s.writeSnapshot(9, '{"a":9}');
    });
    assert.equal(written.fsyncs, 0);
    assert.equal((await s.latestSnapshot())?.json, '{"a":9}');
    assert.equal((await s.latestSnapshot(8))?.json, '{"a":4}');
    // No temp file is left beside them.
    assert.deepEqual(fs.readdirSync(path.join(dir, 'snapshots')).sort(), [
      'snap-000000000004.json',
      'snap-000000000009.json',
    ]);
    const closed = await countingFsyncs(() => s.close());
    assert.ok(closed.fsyncs >= 3, `two files and their folder, ${closed.fsyncs} fsyncs`);
    const again = await SegmentEventStore.open<TestEvent>(dir, { readOnly: true });
    assert.equal((await again.latestSnapshot())?.json, '{"a":9}');
    await again.close();
  });

  it('a deferred snapshot thinned away before the close is skipped by its sync', async () => {
    const dir = tmpDir('snap');
    const s = await tenEvents(dir, true);
    await s.writeSnapshot(4, '{"a":4}');
    fs.unlinkSync(path.join(dir, 'snapshots', 'snap-000000000004.json'));
    await s.close();
    const again = await SegmentEventStore.open<TestEvent>(dir, { readOnly: true });
    assert.equal(await again.latestSnapshot(), undefined);
    await again.close();
  });
});
