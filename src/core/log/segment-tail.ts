// How opening a segment log finds where it ends. After a clean close meta.json says where the last
// record is, and only that record is validated. Otherwise the records after the last checkpointed
// sparse entry are scanned (all of them when an index cannot be trusted): a torn tail is cut,
// damaged bytes are quarantined, and records simply absent are reported as holes.
import fs from 'node:fs';
import type { StoredEvent } from './event-store';
import type { LostRange } from './lost-events';
import type { Meta } from './segment-meta';
import { PosTable } from './pos-table';
import type { Quarantine } from './quarantine';
import type { SegmentFiles } from './segment-files';
import type { SegmentReader } from './segment-reader';
import { type ScanStart, cleanTail, cutTail, scanForward, validatedStart } from './segment-recovery';
import type { SparseIndex } from './sparse-index';
import { fsyncDirSync } from './durable-file';

export interface TailParts<E extends StoredEvent> {
  files: SegmentFiles;
  sparse: SparseIndex;
  reader: SegmentReader<E>;
  quarantine: Quarantine;
}

export interface TailEvidence {
  meta: Meta | 'missing' | 'invalid';
  /** Segments gone from before the last one present. */
  missingBefore: number;
  /** Sparse entries meta.json's checkpoint says are on disk. */
  wantEntries: number;
  checkpoint: number;
}

export interface OpenedTail {
  length: number;
  /** The checkpoint to keep: lowered when the indexes were rebuilt or the log is shorter. */
  checkpoint: number;
  /** meta.json's `end` matches the log (a clean close was found). */
  metaHasEnd: boolean;
  scan: { bytes: number; truncatedBytes: number };
  /** Ranges of records absent from the segments (no damaged bytes where they were). */
  holes: LostRange[];
  rebuildReason: string | null;
}

/** Finds the end of the log and fills the reader's positions table for its tail. */
export function openTail<E extends StoredEvent>(
  parts: TailParts<E>,
  evidence: TailEvidence,
  writable: boolean,
): OpenedTail {
  const { files, sparse, reader } = parts;
  const { meta, wantEntries } = evidence;
  let rebuildReason: string | null = null;
  // A segment gone from the middle: only a full scan finds which records it held.
  if (evidence.missingBefore > 0) rebuildReason = 'a segment is missing';
  else if (meta === 'invalid') rebuildReason = 'meta.json is damaged';
  else if (meta === 'missing' && files.count > 0) rebuildReason = 'meta.json is missing';
  else if (sparse.count < wantEntries) rebuildReason = 'sparse index is missing or short';
  const clean = !rebuildReason && typeof meta === 'object' ? cleanTail(files, meta) : null;
  if (clean) {
    reader.table = new PosTable(clean.seq);
    reader.table.push(clean.segNo, clean.offset, clean.size);
    return {
      length: clean.seq + 1,
      checkpoint: evidence.checkpoint,
      metaHasEnd: true,
      scan: { bytes: clean.size, truncatedBytes: 0 },
      holes: [],
      rebuildReason,
    };
  }
  let checkpoint = evidence.checkpoint;
  let start: ScanStart | null = { segPos: 0, offset: 0, seq: 0 };
  if (!rebuildReason && sparse.count > 0) {
    start = validatedStart(files, sparse);
    if (!start) rebuildReason = 'sparse index does not match the segments';
  }
  if (rebuildReason || !start) {
    sparse.truncate(0);
    checkpoint = 0;
    start = { segPos: 0, offset: 0, seq: 0 };
  }
  reader.table = new PosTable(start.seq);
  const holes: LostRange[] = [];
  const recovered = recoverFrom(parts, start, holes, checkpoint, writable);
  return { ...recovered, metaHasEnd: false, holes, rebuildReason };
}

/**
 * Validates every record from `start` to the end, cutting a torn tail and recording holes (and,
 * in `missing`, the ranges of records simply absent: no damaged bytes where they were).
 */
function recoverFrom<E extends StoredEvent>(
  { files, reader, quarantine }: TailParts<E>,
  start: ScanStart,
  missing: LostRange[],
  checkpointBefore: number,
  writable: boolean,
): { length: number; checkpoint: number; scan: { bytes: number; truncatedBytes: number } } {
  const hooks = reader.scanHooks(true);
  const scan = scanForward(files, start, {
    record: hooks.record,
    gap: (from, to, garbage, at) => {
      if (garbage.length === 0 && to > from) missing.push({ from, to });
      hooks.gap(from, to, garbage, at);
    },
  });
  const cut = cutTail(files, scan.trailing, writable);
  for (const g of cut.elsewhere) quarantine.add(g, -1, 0);
  const length = scan.next;
  const checkpoint = Math.min(checkpointBefore, length);
  if (writable && checkpoint < length) {
    // Not closed cleanly: the last writer may have died with records in the page cache only,
    // possibly in several segments. Sync them now, so a later power cut cannot open a hole
    // under records we will append (and acknowledge) after them.
    for (let p = start.segPos; p < files.count; p++) fs.fdatasyncSync(files.fdOf(files.noAt(p)));
    fsyncDirSync(files.dir);
  }
  return { length, checkpoint, scan: { bytes: scan.bytes, truncatedBytes: cut.truncatedBytes } };
}
