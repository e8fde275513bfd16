// readAt: the records at chosen positions, decoding none of those passed over between them (a
// long conversation's view names a few events among many forgotten ones).
import assert from 'node:assert/strict';
import { type EventCodec, isCorruptRecord, jsonCodec } from '../../../src/core/log/event-store';
import { SegmentEventStore } from '../../../src/core/log/segment-store';
import { identityFromPem, newSigningKeyPem, openSignedStore } from '../../../src/core/signing';
import { type TestEvent, cleanupTmp, ev, flipByteInLine, lineOffsets, segmentPath, tmpDir } from './helpers';

/** The JSON codec, counting what it decodes. */
function countingCodec(): EventCodec<TestEvent> & { decoded: number[] } {
  const base = jsonCodec<TestEvent>();
  const decoded: number[] = [];
  return {
    decoded,
    encode: (e) => base.encode(e),
    decode: (line, index) => {
      decoded.push(index);
      return base.decode(line, index);
    },
  };
}

async function written(n: number): Promise<string> {
  const dir = tmpDir('read-at');
  const s = await SegmentEventStore.open<TestEvent>(dir, { segmentBytes: 64 * 1024 });
  for (let i = 0; i < n; i++) await s.append(ev(`e${i}`, { text: 'x'.repeat(40) }));
  await s.close();
  return dir;
}

describe('SegmentEventStore.readAt', () => {
  afterEach(cleanupTmp);

  it('returns the records at the positions, in order, and decodes only those', async () => {
    const dir = await written(3000);
    const codec = countingCodec();
    const s = await SegmentEventStore.open<TestEvent>(dir, { codec });
    try {
      codec.decoded.length = 0;
      const at = [3, 5, 40, 41, 1500, 2999];
      const slots = await s.readAt(at);
      assert.deepEqual(
        slots.map((x) => x.id),
        at.map((i) => `e${i}`),
      );
      assert.deepEqual(
        [...codec.decoded].sort((a, b) => a - b),
        at,
      );
      // slice over the same span decodes every record in it
      codec.decoded.length = 0;
      await s.slice(3, 42);
      assert.equal(codec.decoded.length, 39);
    } finally {
      await s.close();
    }
  });

  it('reads the same way through a signed store (a conversation’s log), decoding only those', async () => {
    const dir = await written(3000);
    const codec = countingCodec();
    const s = await openSignedStore<TestEvent>(dir, { codec, identity: identityFromPem(newSigningKeyPem()) });
    try {
      codec.decoded.length = 0;
      const at = [3, 5, 40, 41, 1500, 2999];
      const slots = await s.readAt(at);
      assert.deepEqual(
        slots.map((x) => x.id),
        at.map((i) => `e${i}`),
      );
      assert.deepEqual(
        [...codec.decoded].sort((a, b) => a - b),
        at,
      );
    } finally {
      await s.close();
    }
  });

  it('takes each position once, in increasing order, and leaves out those outside the log', async () => {
    const dir = await written(50);
    const s = await SegmentEventStore.open<TestEvent>(dir);
    try {
      const slots = await s.readAt([9, 2, 9, -1, 50, 1.5, 49]);
      assert.deepEqual(
        slots.map((x) => x.id),
        ['e2', 'e9', 'e49'],
      );
      assert.deepEqual(await s.readAt([]), []);
    } finally {
      await s.close();
    }
  });

  it('gives an unreadable record at a wanted position as a corrupt slot, and is not stopped by one passed over', async () => {
    const dir = await written(40);
    const lines = lineOffsets(segmentPath(dir));
    flipByteInLine(segmentPath(dir), lines[10]!);
    flipByteInLine(segmentPath(dir), lines[20]!);
    const s = await SegmentEventStore.open<TestEvent>(dir);
    try {
      const slots = await s.readAt([9, 10, 11, 30]);
      assert.equal(slots.length, 4);
      assert.equal(slots[0]!.id, 'e9');
      assert.ok(isCorruptRecord(slots[1]!), 'the damaged wanted record is a corrupt slot');
      assert.equal(slots[2]!.id, 'e11');
      assert.equal(slots[3]!.id, 'e30');
    } finally {
      await s.close();
    }
  });

  it('rejects once the store is closed', async () => {
    const dir = await written(3);
    const s = await SegmentEventStore.open<TestEvent>(dir);
    await s.close();
    await assert.rejects(s.readAt([0]));
  });
});
