// The id filter that lets an append skip the id table: never "no" for a hash it holds, rarely
// "maybe" for one it does not, also while it grows with the log.
import assert from 'node:assert/strict';
import path from 'node:path';
import { IdFilter } from '../../../src/core/log/id-filter';
import { IdIndex } from '../../../src/core/log/id-index';
import { SegmentEventStore } from '../../../src/core/log';
import { cleanupTmp, ev, tmpDir } from './helpers';

/** Deterministic, well-spread 32-bit values (a xorshift), so a failure reproduces. */
function hashes(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x >>> 0;
  }
  return out;
}

describe('id filter', () => {
  afterEach(() => cleanupTmp());

  it('holds every hash added and says "maybe" for under 1% of others', () => {
    const inside = hashes(100_000, 7);
    const f = IdFilter.of(inside, inside.length);
    for (const h of inside) assert.ok(f.mightHave(h), `lost ${h}`);
    const members = new Set(inside);
    const others = [...hashes(200_000, 99)].filter((h) => !members.has(h));
    const maybes = others.filter((h) => f.mightHave(h)).length;
    assert.ok(maybes / others.length < 0.01, `false "maybe" rate ${maybes / others.length}`);
  });

  it('an id index keeps saying "maybe" for every hash while its filter fills and is rebuilt', () => {
    const idx = IdIndex.load(path.join(tmpDir('ids'), 'ids.idx'), true, 0);
    const all = hashes(60_000, 3);
    for (let i = 0; i < all.length; i++) {
      idx.add(all[i]!);
      // Asked along the way, so the filter exists early and must grow several times.
      if (i % 997 === 0) for (let j = 0; j <= i; j += 101) assert.ok(idx.mightHave(all[j]!), `${j} of ${i}`);
    }
    for (const h of all) assert.ok(idx.mightHave(h));
    idx.truncate(30_000);
    for (let j = 0; j < 30_000; j++) assert.ok(idx.mightHave(all[j]!));
    idx.close();
  });

  it('a store still refuses a duplicate of an old id and finds old parents after many appends', async () => {
    const dir = tmpDir('store');
    const store = await SegmentEventStore.open(dir);
    const n = 20_000;
    for (let i = 0; i < n; i++)
      await store.append(ev(`id-${i}`, { parent_id: i > 0 ? `id-${i - 1}` : null }));
    await assert.rejects(store.append(ev('id-3')), /already in the log/);
    await assert.rejects(store.append(ev(`id-${n - 2}`)), /already in the log/);
    await store.append(ev('late', { parent_id: 'id-17' }));
    assert.equal(await store.indexOf('id-12345'), 12345);
    await store.close();
  });
});
