// The bounded id -> index cache that append checks consult before the id index.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RecentIds } from '../../../src/core/log/recent-ids';

describe('RecentIds', () => {
  it('knows exactly the last `capacity` ids added', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 80 }), (cap, n) => {
        const r = new RecentIds(cap);
        for (let i = 0; i < n; i++) r.add(`id-${i}`, 1000 + i);
        for (let i = 0; i < n; i++) {
          const want = i >= n - cap ? 1000 + i : undefined;
          assert.equal(r.get(`id-${i}`), want, `id-${i} of ${n} with capacity ${cap}`);
        }
      }),
    );
  });

  it('keeps an id that was added again until its newest slot is overwritten', () => {
    const r = new RecentIds(3);
    r.add('a', 0);
    r.add('b', 1);
    r.add('a', 2);
    r.add('c', 3); // overwrites the first slot, which held the older 'a'
    assert.equal(r.get('a'), 2);
    r.add('d', 4);
    r.add('e', 5); // overwrites the slot of the newer 'a'
    assert.equal(r.get('a'), undefined);
    assert.equal(r.get('e'), 5);
  });
});
