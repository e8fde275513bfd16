// Recovery of the segment log: torn tails, holes in the middle, lost or damaged index files.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SegmentEventStore, type SegmentStoreOptions, isCorruptRecord } from '../../../src/core/log';
import { type TestEvent, cleanupTmp, ev, flipByteInLine, lineOffsets, segmentPath, tmpDir } from './helpers';

const open = (dir: string, o: SegmentStoreOptions<TestEvent> = {}) =>
  SegmentEventStore.open<TestEvent>(dir, o);

async function build(dir: string, n: number, o: SegmentStoreOptions<TestEvent> = {}): Promise<void> {
  const s = await open(dir, o);
  for (let i = 0; i < n; i++) await s.append(ev(`e${i}`, { text: `payload ${i} `.repeat(1 + (i % 9)) }));
  await s.close();
}

async function ids(s: SegmentEventStore<TestEvent>): Promise<string[]> {
  return (await s.slice()).map((e) => e.id);
}

/** Removes the clean-close marker from meta.json, as if the last writer had crashed. */
function forgetCleanClose(dir: string): void {
  const metaFile = path.join(dir, 'meta.json');
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { end?: unknown };
  assert.ok(meta.end, 'a clean close leaves an end marker');
  delete meta.end;
  fs.writeFileSync(metaFile, JSON.stringify(meta));
}

const range = (a: number, b: number, f = (i: number) => `e${i}`) =>
  Array.from({ length: b - a }, (_, k) => f(a + k));

describe('SegmentEventStore recovery', () => {
  let dir: string;
  beforeEach(() => {
    dir = tmpDir('recovery');
  });
  afterEach(() => cleanupTmp());

  it('writes greppable lines: crc, seq, length, json', async () => {
    await build(dir, 5);
    const lines = fs.readFileSync(segmentPath(dir), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 5);
    lines.forEach((line, i) => {
      const m = /^([0-9a-f]{8}) (\d+) (\d+) (\{.*\})$/.exec(line);
      assert.ok(m, line);
      assert.equal(Number(m[2]), i);
      assert.equal(Number(m[3]), Buffer.byteLength(m[4]!));
      assert.equal(JSON.parse(m[4]!).id, `e${i}`);
    });
  });

  it('cuts a torn tail (half a record) and reports the bytes', async () => {
    await build(dir, 50);
    const file = segmentPath(dir);
    const starts = lineOffsets(file);
    const size = fs.statSync(file).size;
    const cutAt = starts[49]! + Math.floor((size - starts[49]!) / 2);
    fs.truncateSync(file, cutAt);
    const s = await open(dir);
    assert.equal(s.openReport.truncatedBytes, cutAt - starts[49]!);
    assert.equal(s.length, 49);
    assert.equal(fs.statSync(file).size, starts[49]);
    assert.deepEqual(await ids(s), range(0, 49));
    await s.append(ev('after'));
    await s.close();
    const s2 = await open(dir);
    assert.equal(s2.openReport.truncatedBytes, 0);
    assert.deepEqual(
      (await s2.slice(-2)).map((e) => e.id),
      ['e48', 'after'],
    );
    await s2.close();
  });

  it('cuts zero-filled and checksum-failing tails', async () => {
    await build(dir, 20);
    const file = segmentPath(dir);
    fs.appendFileSync(file, Buffer.alloc(4096));
    let s = await open(dir);
    assert.equal(s.openReport.truncatedBytes, 4096);
    assert.equal(s.length, 20);
    await s.close();
    // a bad crc on the last record, with nothing valid after it, is a torn write too
    const last = lineOffsets(file)[19]!;
    const fullSize = fs.statSync(file).size;
    flipByteInLine(file, last);
    s = await open(dir);
    assert.equal(s.length, 19);
    assert.equal(fs.statSync(file).size, last);
    assert.equal(s.openReport.truncatedBytes, fullSize - last);
    assert.deepEqual(s.openReport.quarantined, []);
    await s.close();
  });

  it('quarantines a corrupt record in the validated tail and still serves the records after it', async () => {
    await build(dir, 40, { sparseStride: 32 });
    const file = segmentPath(dir);
    const starts = lineOffsets(file);
    const original = fs.readFileSync(file).subarray(starts[35]!, starts[36]!);
    flipByteInLine(file, starts[35]!);
    forgetCleanClose(dir); // after a clean close only the last record is checked at open
    const s = await open(dir);
    assert.equal(s.length, 40);
    assert.equal(s.openReport.truncatedBytes, 0);
    assert.equal(s.openReport.quarantined.length, 1);
    const q = s.openReport.quarantined[0]!;
    assert.equal(q.index, 35);
    assert.equal(q.slots, 1);
    assert.equal(q.segment, '000001.log');
    assert.equal(q.offset, starts[35]);
    assert.match(q.reason, /checksum/);
    assert.ok(q.file);
    assert.equal(fs.readFileSync(q.file).length, original.length);
    const bad = await s.get(35);
    assert.ok(isCorruptRecord(bad));
    assert.equal(bad.index, 35);
    assert.match(bad.reason, /checksum/);
    assert.deepEqual(
      (await s.slice(36)).map((e) => e.id),
      range(36, 40),
    );
    assert.equal(await s.indexOf('e39'), 39);
    await s.append(ev('e40'));
    assert.equal(s.length, 41);
    await s.close();
  });

  it('finds a corrupt record deep in the log on read, quarantines it, and keeps indices stable', async () => {
    await build(dir, 200, { sparseStride: 16 });
    const file = segmentPath(dir);
    flipByteInLine(file, lineOffsets(file)[50]!);
    let s = await open(dir);
    assert.deepEqual(s.openReport.quarantined, [], 'open only validates the tail');
    const part = await s.slice(45, 55);
    assert.equal(part.length, 10);
    part.forEach((e, k) => {
      if (k === 5) assert.ok(isCorruptRecord(e) && e.index === 50);
      else assert.equal(e.id, `e${45 + k}`);
    });
    assert.equal(s.quarantined.length, 1);
    assert.equal(s.quarantined[0]!.index, 50);
    assert.ok(fs.existsSync(s.quarantined[0]!.file!));
    assert.equal((await s.get(199)).id, 'e199');
    await s.close();
    s = await open(dir);
    assert.ok(isCorruptRecord(await s.get(50)), 'the same slot is corrupt after reopening');
    assert.equal((await s.get(51)).id, 'e51');
    await s.close();
  });

  it('counts lost slots by seq when corruption merges two lines', async () => {
    await build(dir, 100, { sparseStride: 8 });
    const file = segmentPath(dir);
    const starts = lineOffsets(file);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('X'), 0, 1, starts[61]! - 1); // the newline ending record 60
    fs.closeSync(fd);
    const s = await open(dir);
    const all = await s.slice();
    assert.equal(all.length, 100);
    const corrupt = all.filter((e) => isCorruptRecord(e)).map((e) => (e as { index: number }).index);
    assert.deepEqual(corrupt, [60, 61]);
    assert.equal(all[62]!.id, 'e62');
    await s.close();
  });

  it('rebuilds a deleted sparse index and serves every record', async () => {
    await build(dir, 300, { sparseStride: 16, segmentBytes: 4096 });
    const sparse = path.join(dir, 'sparse.idx');
    const before = fs.readFileSync(sparse);
    fs.rmSync(sparse);
    const s = await open(dir);
    assert.equal(s.openReport.indexRebuilt, true);
    assert.match(s.openReport.rebuildReason ?? '', /sparse/);
    assert.deepEqual(await ids(s), range(0, 300));
    assert.equal((await s.get(123)).id, 'e123');
    await s.close();
    assert.deepEqual(fs.readFileSync(sparse), before);
    const s2 = await open(dir);
    assert.equal(s2.openReport.indexRebuilt, false);
    await s2.close();
  });

  it('detects damaged sparse entries on read and rebuilds', async () => {
    await build(dir, 300, { sparseStride: 16 });
    const sparse = path.join(dir, 'sparse.idx');
    const buf = fs.readFileSync(sparse);
    buf.fill(0xab, 16 * 3, 16 * 6); // entries 3..5 (records 48..95)
    fs.writeFileSync(sparse, buf);
    const s = await open(dir);
    assert.equal(s.openReport.indexRebuilt, false, 'open only checks the last entries');
    assert.equal((await s.get(70)).id, 'e70');
    assert.deepEqual(
      (await s.slice(40, 100)).map((e) => e.id),
      range(40, 100),
    );
    await s.close();
  });

  it('rebuilds when meta.json or ids.idx is missing', async () => {
    await build(dir, 150, { sparseStride: 8 });
    fs.rmSync(path.join(dir, 'meta.json'));
    let s = await open(dir);
    assert.equal(s.openReport.indexRebuilt, true);
    assert.equal((await s.getById('e77'))?.id, 'e77');
    await s.close();
    fs.rmSync(path.join(dir, 'ids.idx'));
    s = await open(dir);
    assert.equal(await s.indexOf('e149'), 149);
    assert.equal(await s.indexOf('e0'), 0);
    await assert.rejects(s.append(ev('e12')), /already in the log/);
    await s.close();
  });

  it('serves records of a deleted middle segment as CorruptRecord, and the rest normally', async () => {
    await build(dir, 200, { segmentBytes: 2048, sparseStride: 4 });
    const segs = fs.readdirSync(path.join(dir, 'segments')).sort();
    assert.ok(segs.length > 5);
    const victim = path.join(dir, 'segments', segs[2]!);
    const lost = lineOffsets(victim).length;
    fs.rmSync(victim);
    await assert.rejects(open(dir), /segments\/000003\.log is missing/);
    const s = await open(dir, { acceptLostEvents: true });
    assert.equal(s.openReport.lostEvents?.count, lost);
    const all = await s.slice();
    assert.equal(all.length, 200);
    const corrupt = all.filter((e) => isCorruptRecord(e));
    assert.equal(corrupt.length, lost);
    assert.match((corrupt[0] as { reason: string }).reason, /missing/);
    assert.equal(all[199]!.id, 'e199');
    await s.close();
  });

  it('rolls segments at the configured size and reads across them', async () => {
    await build(dir, 500, { segmentBytes: 4096 });
    const segs = fs.readdirSync(path.join(dir, 'segments')).sort();
    assert.ok(segs.length >= 10, `${segs.length} segments`);
    for (const f of segs) assert.ok(fs.statSync(path.join(dir, 'segments', f)).size <= 4096);
    const s = await open(dir);
    assert.deepEqual(await ids(s), range(0, 500));
    await s.close();
  });

  it('after a clean close, reopening validates only the last record', async () => {
    await build(dir, 300);
    const s = await open(dir);
    const lastLine = fs.readFileSync(segmentPath(dir), 'utf8').trimEnd().split('\n').pop()!;
    assert.equal(s.openReport.scannedBytes, Buffer.byteLength(lastLine) + 1);
    assert.equal((await s.get(299)).id, 'e299');
    await s.append(ev('more'));
    await s.close();
    const s2 = await open(dir);
    assert.equal(s2.length, 301);
    assert.equal((await s2.slice(-2)).map((e) => e.id).join(), 'e299,more');
    await s2.close();
  });

  it('keeps open cost bounded by the tail, not the history', async () => {
    const small = tmpDir('small');
    await build(small, 100, { sparseStride: 32 });
    await build(dir, 5000, { sparseStride: 32 });
    // As after a crash: open must walk from the last index entry.
    forgetCleanClose(small);
    forgetCleanClose(dir);
    const a = await open(small);
    const b = await open(dir);
    assert.ok(b.openReport.scannedBytes > 0);
    assert.ok(b.openReport.scannedBytes < 32 * 200, `scanned ${b.openReport.scannedBytes} bytes`);
    assert.ok(b.openReport.scannedBytes < 3 * Math.max(a.openReport.scannedBytes, 1000));
    assert.equal(b.length, 5000);
    assert.equal((await b.slice(-1))[0]!.id, 'e4999');
    await a.close();
    await b.close();
  });

  it('a read-only opener hides a partial record instead of cutting it', async () => {
    const w = await open(dir);
    for (let i = 0; i < 10; i++) await w.append(ev(`e${i}`));
    await w.flush();
    const file = segmentPath(dir);
    fs.appendFileSync(file, '0badc0de 10 999 {"id":'); // a writer mid-record
    const size = fs.statSync(file).size;
    const r = await open(dir);
    assert.equal(r.readOnly, true);
    assert.equal(r.length, 10);
    assert.equal(fs.statSync(file).size, size, 'file untouched');
    await r.close();
    await w.close();
  });

  it('drops a snapshot whose events were lost to a torn tail', async () => {
    const s = await open(dir);
    for (let i = 0; i < 10; i++) await s.append(ev(`e${i}`));
    await s.writeSnapshot(4, '{"at":4}');
    await s.writeSnapshot(9, '{"at":9}');
    await s.close();
    const file = segmentPath(dir);
    fs.truncateSync(file, lineOffsets(file)[9]! + 5);
    const s2 = await open(dir);
    assert.equal(s2.length, 9);
    assert.equal((await s2.latestSnapshot())?.json, '{"at":4}');
    // a new event 9 with another id must not resurrect the old snapshot 9
    await s2.append(ev('other'));
    assert.equal((await s2.latestSnapshot())?.json, '{"at":4}');
    await s2.close();
  });

  it('a failed write rejects the append and leaves no half record behind', async () => {
    let failNext = false;
    const s = await open(dir, {
      io: {
        write: (fd, buf, off, len, pos) => {
          if (failNext) {
            failNext = false;
            fs.writeSync(fd, buf, off, Math.floor(len / 2), pos);
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          }
          return fs.writeSync(fd, buf, off, len, pos);
        },
      },
    });
    await s.append(ev('a'));
    failNext = true;
    await assert.rejects(s.append(ev('b', { text: 'x'.repeat(1000) })), (e: unknown) => {
      assert.equal((e as { code?: string }).code, 'IO_FAILED');
      assert.match(String(e), /ENOSPC/);
      return true;
    });
    assert.equal(s.length, 1);
    assert.equal(await s.indexOf('b'), -1);
    await s.append(ev('b'));
    await s.close();
    const s2 = await open(dir);
    assert.equal(s2.openReport.truncatedBytes, 0);
    assert.deepEqual(await ids(s2), ['a', 'b']);
    await s2.close();
  });

  it('a failed fdatasync rejects durable appends and stops the store', async () => {
    const s = await open(dir, { io: { fdatasync: () => Promise.reject(new Error('EIO: i/o error')) } });
    await s.append(ev('a'));
    await assert.rejects(s.append(ev('b'), { durable: true }), /EIO/);
    await assert.rejects(s.append(ev('c')), (e: unknown) => (e as { code?: string }).code === 'IO_FAILED');
    await s.close();
  });
});
