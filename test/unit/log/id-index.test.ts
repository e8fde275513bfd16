// The id index: hash collisions never make a new id look like a duplicate, nor hide a real one.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import { SegmentEventStore } from '../../../src/core/log';
import { IdIndex, idHash } from '../../../src/core/log/id-index';
import { cleanupTmp, ev, tmpDir } from './helpers';

describe('id index', () => {
  afterEach(() => cleanupTmp());

  it('returns every index with a hash, across growth and truncation', () => {
    const idx = IdIndex.load(path.join(tmpDir('ids'), 'ids.idx'), true, 0);
    for (let i = 0; i < 5000; i++) idx.add(i % 1000 === 7 ? 0xdeadbeef : i * 2654435761);
    assert.deepEqual(
      [...idx.candidates(0xdeadbeef)].sort((a, b) => a - b),
      [7, 1007, 2007, 3007, 4007],
    );
    assert.deepEqual(idx.candidates((1234 * 2654435761) >>> 0), [1234]);
    assert.deepEqual(idx.candidates(42), []);
    idx.truncate(2500);
    assert.deepEqual(
      [...idx.candidates(0xdeadbeef)].sort((a, b) => a - b),
      [7, 1007, 2007],
    );
    assert.equal(idx.coveredCount, 2500);
    idx.close();
  });

  it('gives the same indices while it scans the hashes and once it has built its table', () => {
    const idx = IdIndex.load(path.join(tmpDir('ids'), 'ids.idx'), true, 0);
    const hashes = Array.from({ length: 3000 }, (_, i) =>
      i % 500 === 3 ? 0xdeadbeef : (i * 2654435761) >>> 0,
    );
    hashes.forEach((h) => idx.add(h));
    const expected = (h: number) => hashes.flatMap((x, i) => (x === h ? [i] : []));
    const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
    // Enough lookups to pass from scanning to the table, and appends on both sides of it.
    for (let k = 0; k < 400; k++) {
      const h = k % 3 === 0 ? 0xdeadbeef : hashes[(k * 7) % hashes.length]!;
      assert.deepEqual(sorted(idx.candidates(h)), expected(h), `lookup ${k}`);
      if (k % 50 === 0) {
        hashes.push(0xdeadbeef);
        idx.add(0xdeadbeef);
      }
    }
    idx.close();
  });

  it('keeps every index once its table has grown past its first size', () => {
    const idx = IdIndex.load(path.join(tmpDir('ids'), 'ids.idx'), true, 0);
    const dup = 0x9e3779b9;
    for (let k = 0; k < 200; k++) idx.candidates(k); // past the scans: the table is built
    const n = 40_000; // several times the table's first size, so it grows while holding them
    for (let i = 0; i < n; i++) idx.add(i % 4096 === 5 ? dup : (Math.imul(i, 0x85ebca6b) ^ 0x5bd1e995) >>> 0);
    const dupAt = Array.from({ length: n }, (_, i) => i).filter((i) => i % 4096 === 5);
    assert.deepEqual(
      [...idx.candidates(dup)].sort((a, b) => a - b),
      dupAt,
    );
    for (const i of [0, 1, 8191, 8192, 16_385, n - 1]) {
      if (i % 4096 === 5) continue;
      const h = (Math.imul(i, 0x85ebca6b) ^ 0x5bd1e995) >>> 0;
      assert.ok(idx.candidates(h).includes(i), `index ${i}`);
    }
    idx.close();
  });

  it('hashes an id as crc32 of its UTF-8 bytes, whatever its characters and length', () => {
    const ids = [
      '',
      'a',
      'évènement',
      'abcdé',
      '事件-1',
      '\u{1F600}',
      'x'.repeat(64),
      'y'.repeat(65),
      crypto.randomUUID(),
    ];
    // node:zlib's own crc32 (Node >= 20.15) is the reference.
    const reference = (zlib as unknown as { crc32(d: Uint8Array): number }).crc32;
    for (const id of ids) assert.equal(idHash(id), reference(Buffer.from(id, 'utf8')), JSON.stringify(id));
  });

  it('never takes bytes that straddle two hashes for a hash', () => {
    const idx = IdIndex.load(path.join(tmpDir('ids'), 'ids.idx'), true, 0);
    idx.add(0x11223344);
    idx.add(0x55667788);
    // Little- or big-endian, some 4 bytes across the two records read as one of these.
    for (const h of [0x77881122, 0x22114433, 0x33445566, 0x44556677, 0x22334455, 0x66778811])
      assert.deepEqual(idx.candidates(h), [], h.toString(16));
    assert.deepEqual(idx.candidates(0x55667788), [1]);
    idx.close();
  });

  it('tells apart two ids with the same crc32 ("plumless" / "buckeroo"), also after reopening', async () => {
    assert.equal(idHash('plumless'), idHash('buckeroo'));
    const dir = tmpDir('ids');
    let s = await SegmentEventStore.open(dir);
    await s.append(ev('plumless'));
    await s.append(ev('other'));
    assert.equal(await s.append(ev('buckeroo', { parent_id: 'plumless' })), 2);
    await s.close();
    s = await SegmentEventStore.open(dir);
    assert.equal(await s.indexOf('plumless'), 0);
    assert.equal(await s.indexOf('buckeroo'), 2);
    await assert.rejects(s.append(ev('buckeroo')), /already in the log \(index 2\)/);
    await assert.rejects(s.append(ev('plumless')), /already in the log \(index 0\)/);
    await s.close();
  });
});
