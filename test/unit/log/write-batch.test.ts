// A batching segment writer (writeBatchBytes, a bulk import's): records are held and written many
// per call, every read and sync sees them, and a failed write of held records fails the store.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SegmentEventStore } from '../../../src/core/log';
import { cleanupTmp, ev, segmentPath, tmpDir, type TestEvent } from './helpers';

/** An io whose positional writes are counted, and fail once `failAfter` of them succeeded. */
function countingIo(failAfter = Infinity) {
  const io = {
    writes: 0,
    write: (fd: number, b: Uint8Array, o: number, l: number, p: number): number => {
      if (io.writes >= failAfter)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      io.writes++;
      return fs.writeSync(fd, b, o, l, p);
    },
  };
  return io;
}

describe('segment log: batched writes', () => {
  afterEach(cleanupTmp);

  it('holds appends until the batch fills, and writes each batch with one call', async () => {
    const dir = tmpDir('batch');
    const io = countingIo();
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io,
      writeBatchBytes: 4096,
      groupCommitMs: 60_000,
      groupCommitBytes: 1 << 30,
    });
    for (let i = 0; i < 100; i++) await s.append(ev(`e${i}`, { text: 'x'.repeat(100) }));
    const writesBeforeClose = io.writes;
    const sizeBeforeClose = fs.statSync(segmentPath(dir)).size;
    await s.close();
    const lines = fs.readFileSync(segmentPath(dir), 'utf8').trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l.split(' ').slice(3).join(' ')) as TestEvent).id),
      Array.from({ length: 100 }, (_, i) => `e${i}`),
    );
    // The batches the records fill, greedily, 4096 bytes at most each.
    const batches: number[] = [0];
    for (const size of lines.map((l) => Buffer.byteLength(l) + 1)) {
      if (batches.at(-1)! + size > 4096) batches.push(0);
      batches[batches.length - 1]! += size;
    }
    assert.ok(batches.length > 3 && batches.length < 10, `${batches.length} batches`);
    assert.equal(writesBeforeClose, batches.length - 1, 'one write per full batch, none per append');
    assert.equal(
      sizeBeforeClose,
      batches.slice(0, -1).reduce((a, b) => a + b, 0),
    );
    assert.equal(io.writes, batches.length, 'close writes the rest');
  });

  it('a read or a durable append sees the records still held', async () => {
    const dir = tmpDir('batch');
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io: countingIo(),
      writeBatchBytes: 1 << 20,
      groupCommitMs: 60_000,
    });
    for (let i = 0; i < 10; i++) await s.append(ev(`e${i}`));
    assert.equal(fs.statSync(segmentPath(dir)).size, 0, 'held, not written yet');
    assert.equal((await s.get(9)).id, 'e9');
    assert.deepEqual(
      (await s.slice(0, 3)).map((e) => e.id),
      ['e0', 'e1', 'e2'],
    );
    await s.append(ev('last'), { durable: true });
    assert.match(fs.readFileSync(segmentPath(dir), 'utf8'), /"id":"last"/);
    await s.close();
    const again = await SegmentEventStore.open<TestEvent>(dir, { readOnly: true });
    assert.equal(again.length, 11);
    await again.close();
  });

  it('a failed write of held records fails the store: its sync and reads reject, it takes no more appends', async () => {
    const dir = tmpDir('batch');
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io: countingIo(0),
      writeBatchBytes: 1 << 20,
      groupCommitMs: 60_000,
    });
    await s.append(ev('a'));
    await assert.rejects(s.flush(), /ENOSPC/);
    await assert.rejects(s.get(0), /ENOSPC/);
    await assert.rejects(s.append(ev('b')), /ENOSPC/);
    await s.close();
    assert.equal(fs.statSync(segmentPath(dir)).size, 0, 'no half record left behind');
  });
});
