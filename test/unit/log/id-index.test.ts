// The id index: hash collisions never make a new id look like a duplicate, nor hide a real one.
import assert from 'node:assert/strict';
import path from 'node:path';
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
