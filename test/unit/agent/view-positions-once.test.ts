// An open decodes a view checkpoint's positions to check them, then again to read the view there:
// the second is served from the first, and each caller still gets an array of its own.
import assert from 'node:assert/strict';
import { decodePositions, encodePositions } from '../../../src/core/agent/view-positions';

describe('a view checkpoint’s positions, decoded twice', () => {
  it('are the same positions, in an array of each caller’s own', () => {
    const at = [0, 1, 3, 5, 9_796, 9_798, 9_999];
    const kept = encodePositions(
      at.map((p) => `id-${p}`),
      at,
    )!;
    const first = decodePositions(kept)!;
    assert.deepEqual(first, at);
    first.push(123_456);
    first[0] = 42;
    assert.deepEqual(decodePositions(kept), at);
  });

  it('a bitmap that does not hold `count` positions is still refused', () => {
    const kept = encodePositions(['a', 'b'], [4, 8])!;
    assert.equal(decodePositions({ ...kept, count: 3 }), null);
    assert.equal(decodePositions({ ...kept, bits: 'not deflated' }), null);
  });
});
