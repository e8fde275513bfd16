// Open-time recovery of a segment log, bounded by the tail: start at the last sparse-index entry
// covered by the checkpoint (or at the very start when the index is missing or damaged), validate
// every record from there to the end, and classify what is not a valid record:
//   - garbage followed by valid records: a hole in the middle -> quarantined, its slots served as
//     CorruptRecord placeholders (seq numbers in the records say exactly how many slots were lost);
//   - garbage with nothing valid after it, in the last segment with bytes (a spare made ahead of a
//     roll may follow it, empty): a torn tail -> truncated, reported.
import fs from 'node:fs';
import { type CursorGarbage, SegmentCursor } from './segment-cursor';
import { type SegmentFiles } from './segment-files';
import { type Meta } from './segment-meta';
import { type SparseIndex } from './sparse-index';

export interface ScanStart {
  segPos: number;
  offset: number;
  seq: number;
}

export interface ScanHooks {
  record(seq: number, segNo: number, offset: number, size: number): void;
  /** slots [from, to) lost to `garbage` (may be empty: records simply missing); next record at `at` */
  gap(from: number, to: number, garbage: CursorGarbage[], at: { segNo: number; offset: number }): void;
}

export interface ScanResult {
  /** seq of the record after the last valid one */
  next: number;
  /** garbage after the last valid record */
  trailing: CursorGarbage[];
  bytes: number;
}

/** Walks every record from `start` to the end of the last segment. */
export function scanForward(files: SegmentFiles, start: ScanStart, hooks: ScanHooks): ScanResult {
  const cur = new SegmentCursor(files, start.segPos, start.offset, 1 << 20);
  let expected = start.seq;
  let pending: CursorGarbage[] = [];
  let bytes = 0;
  for (let item = cur.next(); item; item = cur.next()) {
    bytes += item.size;
    if (item.type === 'garbage') {
      pending.push(item);
      continue;
    }
    const segNo = files.noAt(item.segPos);
    if (item.seq < expected) {
      // A valid record that belongs earlier (e.g. an old copy): not ours to serve here.
      pending.push({ ...staleAsGarbage(item.segPos, item.offset, item.size, item.seq) });
      continue;
    }
    if (pending.length > 0 || item.seq > expected) {
      hooks.gap(expected, item.seq, pending, { segNo, offset: item.offset });
      pending = [];
    }
    hooks.record(item.seq, segNo, item.offset, item.size);
    expected = item.seq + 1;
  }
  return { next: expected, trailing: pending, bytes };
}

export function staleAsGarbage(segPos: number, offset: number, size: number, seq: number): CursorGarbage {
  return { type: 'garbage', segPos, offset, size, reason: `out-of-order record (seq ${seq})` };
}

/** The newest of the last few sparse entries that still points at the record it names. */
export function validatedStart(files: SegmentFiles, sparse: SparseIndex): ScanStart | null {
  for (let k = sparse.count - 1; k >= 0 && k >= sparse.count - 4; k--) {
    const e = sparse.get(k);
    if (!e) continue;
    const segPos = files.posOf(e.segNo);
    if (segPos < 0 || e.offset >= files.sizeAt(segPos)) continue;
    const item = new SegmentCursor(files, segPos, e.offset, 4096).next();
    if (item?.type === 'record' && item.seq === e.seq && item.offset === e.offset) {
      sparse.truncate(k + 1);
      return { segPos, offset: e.offset, seq: e.seq };
    }
  }
  return null;
}

/**
 * Cuts trailing garbage off the tail segment (writable) or just hides it (read-only: the writer
 * may be in the middle of that very record). Garbage at the end of an earlier segment, with no
 * valid record after it anywhere, is returned for quarantine instead: only the tail can be a torn
 * write.
 */
export function cutTail(
  files: SegmentFiles,
  trailing: CursorGarbage[],
  writable: boolean,
): { truncatedBytes: number; elsewhere: CursorGarbage[] } {
  const tail = tailSegment(files);
  const inTail = trailing.filter((g) => g.segPos === tail);
  const elsewhere = trailing.filter((g) => g.segPos !== tail);
  if (inTail.length === 0) return { truncatedBytes: 0, elsewhere };
  const cutAt = inTail[0]!.offset;
  const size = files.sizeAt(tail);
  const no = files.noAt(tail);
  if (writable) {
    const fd = files.openForWrite(no);
    fs.ftruncateSync(fd, cutAt);
    fs.fsyncSync(fd);
  }
  files.setSize(no, cutAt);
  return { truncatedBytes: size - cutAt, elsewhere };
}

/**
 * The segment the last write went to: the last one with bytes. Empty segments after it are the
 * spare made ahead of a roll, or a roll the crash came right after; they hold nothing to cut.
 */
function tailSegment(files: SegmentFiles): number {
  let pos = files.count - 1;
  while (pos > 0 && files.sizeAt(pos) === 0) pos--;
  return pos;
}

/**
 * The log exactly as the last clean close left it (meta.json's `end` matches the last segment's
 * size, and the last record is valid and has the expected seq): nothing else to validate.
 */
export function cleanTail(
  files: SegmentFiles,
  meta: Meta,
): { seq: number; segNo: number; offset: number; size: number } | null {
  const end = meta.end;
  const last = files.count - 1;
  if (!end || meta.checkpoint === 0 || last < 0) return null;
  if (files.noAt(last) !== end.segNo || files.sizeAt(last) !== end.offset) return null;
  const item = new SegmentCursor(files, last, end.last, 64 * 1024).next();
  if (item?.type !== 'record' || item.seq !== meta.checkpoint - 1 || item.offset + item.size !== end.offset) {
    return null;
  }
  return { seq: item.seq, segNo: end.segNo, offset: item.offset, size: item.size };
}
