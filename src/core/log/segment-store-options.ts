// What a segment log is opened with (SegmentStoreOptions) and what opening it found (OpenReport).
import type { EventCodec, QuarantineEntry, StoredEvent } from './event-store';
import type { AcceptedLoss, LostEvents } from './lost-events';
import type { LockInfo } from './lock';
import type { SegmentIo } from './segment-writer';

/**
 * A new segment past this size. Each new file costs the file system more than the bytes written
 * into it (W1 measured about 1 point of the append rate per roll every 8 MiB), and nothing reads a
 * segment whole except `logbook verify`, one at a time.
 */
export const DEFAULT_SEGMENT_BYTES = 32 * 1024 * 1024;

export interface SegmentStoreOptions<E extends StoredEvent> {
  codec?: EventCodec<E>;
  /** open read-only even when the lock is free */
  readOnly?: boolean;
  /** who this writer is, in words, written into the lock for the messages of readers (lock.ts) */
  lockHolder?: string;
  /**
   * Keep every snapshot written (default: keep the newest few and older ones at widening
   * intervals, snapshot-thinning.ts), for tests and benchmarks that compare against each one.
   */
  keepAllSnapshots?: boolean;
  /** roll to a new segment when the current one would exceed this (default 32 MiB) */
  segmentBytes?: number;
  /** a sparse-index entry every N records (default 32); an existing log keeps its own */
  sparseStride?: number;
  /** longest wait before ordinary appends are fdatasync'ed (default 5 ms) */
  groupCommitMs?: number;
  /** fdatasync at once when this many bytes are pending (default 1 MiB) */
  groupCommitBytes?: number;
  /**
   * Hold appended records and write them this many bytes at a time (default 0: every append is
   * written at once). For a bulk import, which a failure discards whole: an append then reports
   * success before its bytes reach the file, and a failed write of held records fails the store
   * (its next sync, read or append). Reads and syncs write what is held first.
   */
  writeBatchBytes?: number;
  /**
   * Write snapshots without syncing each one; `close` syncs them and their folder together. For a
   * bulk import, which closes the store before it reports success (and is discarded whole when it
   * fails): a power cut before that close loses or tears snapshots, which their crc then skips.
   */
  deferSnapshotSyncs?: boolean;
  /** sync the index files and advance meta.json's checkpoint this often (default 4096 records / 8 MiB) */
  checkpointRecords?: number;
  checkpointBytes?: number;
  onListenerError?: (err: unknown) => void;
  /** called for every quarantined range, at open and when found later by a read */
  onQuarantine?: (q: QuarantineEntry) => void;
  /**
   * Open for writing although events the log once held are gone (see lost-events.ts): the loss is
   * recorded in lost.json and reported in `openReport.lostEvents`. Without it such a writable open
   * throws LOST_DATA and writes nothing.
   */
  acceptLostEvents?: boolean;
  /** fault injection for tests */
  io?: Partial<SegmentIo>;
}

export interface OpenReport {
  length: number;
  readOnly: boolean;
  lockHeldBy: string | null;
  /** the dead writer's lock we replaced, if any */
  tookOverStaleLock: LockInfo | null;
  /** bytes of torn tail cut off (read-only: ignored, not cut) */
  truncatedBytes: number;
  /** holes found while validating the tail (more may be found later by reads: see `quarantined`) */
  quarantined: QuarantineEntry[];
  indexRebuilt: boolean;
  rebuildReason: string | null;
  /**
   * Events that meta.json, the indexes or the snapshots say the log held and its segments no longer
   * have. Read-only: reported as found. Writable: only when opened with `acceptLostEvents`, and then
   * accepted by this open (also listed in `acceptedLosses`).
   */
  lostEvents: LostEvents | null;
  /** every loss accepted so far (lost.json), oldest first */
  acceptedLosses: AcceptedLoss[];
  /** bytes validated at open */
  scannedBytes: number;
  openMs: number;
}
