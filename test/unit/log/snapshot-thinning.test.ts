// Snapshots are thinned to the newest few plus the newest of each stride of the log, when written
// and when a writer opens a store written before that; the log itself is never touched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SegmentEventStore, type SegmentStoreOptions } from '../../../src/core/log';
import { KEEP_NEWEST, STRIDE, snapshotsToKeep } from '../../../src/core/log/snapshot-thinning';
import { type TestEvent, cleanupTmp, ev, tmpDir } from './helpers';

const open = (dir: string, o: SegmentStoreOptions<TestEvent> = {}) =>
  SegmentEventStore.open<TestEvent>(dir, o);
const snapshotFiles = (dir: string) => fs.readdirSync(path.join(dir, 'snapshots')).sort();
const segmentBytes = (dir: string) =>
  fs
    .readdirSync(path.join(dir, 'segments'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, 'segments', f)).toString('base64'));

/** A log of `n` events with a snapshot every `every`, all kept, as stores were written before thinning. */
async function oldStore(dir: string, n: number, every: number): Promise<void> {
  const s = await open(dir, { keepAllSnapshots: true });
  for (let i = 0; i < n; i++) {
    await s.append(ev(`e${i}`, { text: 'x' }));
    if ((i + 1) % every === 0) await s.writeSnapshot(i, `{"at":${i}}`);
  }
  await s.close();
}

describe('snapshot thinning', () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(tmpDir(), 'c');
  });
  afterEach(cleanupTmp);

  it('keeps the newest few and one per stride, so no index is far from a snapshot', () => {
    const all = Array.from({ length: 200 }, (_, k) => 499 + 500 * k);
    const kept = [...snapshotsToKeep(all)].sort((a, b) => b - a);
    assert.deepEqual(kept.slice(0, KEEP_NEWEST), [99_999, 99_499]);
    // Linear: one per stride (the newest stride holds the newest two).
    assert.equal(kept.length, 100_000 / STRIDE + 1);
    // Every index of the log has the start of the log or a kept snapshot less than 2 strides before it.
    assert.ok(kept.at(-1)! < STRIDE);
    for (let i = kept.at(-1)!; i < 100_000; i++) {
      const from = kept.find((k) => k <= i)!;
      assert.ok(i - from < 2 * STRIDE, `index ${i} is ${i - from} events past snapshot ${from}`);
    }
    // Thinning what was kept keeps it all: a store thinned again loses nothing more.
    assert.deepEqual(
      [...snapshotsToKeep(kept)].sort((a, b) => b - a),
      kept,
    );
  });

  it('keeps a stride whatever index its snapshots were taken at (a run ending mid-stride)', () => {
    const kept = snapshotsToKeep([499, 999, 1234, 1499, 2001, 2600, 3100, 3200]);
    assert.deepEqual(
      [...kept].sort((a, b) => a - b),
      [999, 1499, 2600, 3100, 3200],
    );
  });

  it('a store keeps about one snapshot file per stride as its log grows', async () => {
    const s = await open(dir);
    for (let i = 0; i < 3 * STRIDE; i++) {
      await s.append(ev(`e${i}`, { text: 'x' }));
      if ((i + 1) % 50 === 0) await s.writeSnapshot(i, `{"at":${i}}`);
    }
    assert.equal((await s.latestSnapshot())!.index, 3 * STRIDE - 1);
    assert.equal((await s.latestSnapshot(STRIDE + 10))!.index, STRIDE - 1, 'an older stride keeps one');
    await s.close();
    assert.ok(snapshotFiles(dir).length <= 4, snapshotFiles(dir).join(' '));
  });

  it('an older store is thinned the first time a writer opens it, without touching its log', async () => {
    await oldStore(dir, 3000, 50);
    assert.equal(snapshotFiles(dir).length, 60);
    const segmentsBefore = segmentBytes(dir);

    // A reader changes nothing.
    const r = await open(dir, { readOnly: true });
    await r.close();
    assert.equal(snapshotFiles(dir).length, 60);

    const w = await open(dir);
    assert.ok(snapshotFiles(dir).length <= 4, snapshotFiles(dir).join(' '));
    assert.equal((await w.latestSnapshot())!.json, '{"at":2999}');
    assert.equal(w.length, 3000);
    await w.close();
    assert.deepEqual(segmentBytes(dir), segmentsBefore);
  });
});
