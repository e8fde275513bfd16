// The bounded seq -> id ring that append checks consult before reading a record to confirm an
// id-index candidate.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RecentIds } from '../../../src/core/log/recent-ids';

describe('RecentIds', () => {
  it('knows exactly the ids of the last `capacity` seqs added', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 1000 }),
        (cap, n, base) => {
          const r = new RecentIds(cap);
          for (let i = 0; i < n; i++) r.add(`id-${i}`, base + i);
          for (let i = -2; i < n + 2; i++) {
            const want = i >= 0 && i < n && i >= n - cap ? `id-${i}` : undefined;
            assert.equal(r.idAt(base + i), want, `seq ${base + i} of ${n} with capacity ${cap}`);
          }
        },
      ),
    );
  });

  it('skips seqs never added (corrupt records) and forgets a slot taken by a later seq', () => {
    const r = new RecentIds(3);
    assert.equal(r.idAt(0), undefined);
    r.add('a', 0);
    r.add('c', 2); // seq 1 was corrupt: never added
    assert.equal(r.idAt(0), 'a');
    assert.equal(r.idAt(1), undefined);
    assert.equal(r.idAt(2), 'c');
    r.add('d', 3); // takes the slot of seq 0
    assert.equal(r.idAt(0), undefined);
    assert.equal(r.idAt(3), 'd');
    assert.equal(r.idAt(6), undefined); // same slot, a seq not added
  });
});
