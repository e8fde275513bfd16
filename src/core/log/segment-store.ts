// SegmentEventStore: the default, crash-safe backend. On disk (one directory per conversation):
//
//   LOCK                  single-writer lock (lock.ts)
//   meta.json             format, sparse stride, checkpoint (records whose index files are synced)
//   segments/000001.log   records, one per line (record-format.ts), a new segment every ~8 MB
//   sparse.idx            every stride-th record's (segment, offset) (sparse-index.ts)
//   ids.idx               crc32(id) per record, for getById and duplicate checks (id-index.ts)
//   snapshots/            opaque state snapshots (snapshot-dir.ts)
//   quarantine/           copies of unreadable bytes found in the middle of the log
//
// Opening reads meta.json and validates only the tail: after a clean close the last record (meta.json
// says where the log ended), otherwise the records after the last checkpointed sparse entry. So it
// costs the same for 100 or 1,000,000 events. Appends write synchronously, in call order
// (segment-writer.ts), and share fdatasyncs through group commit (group-commit.ts); see
// AppendOptions for what a resolved append guarantees. Reads: segment-reader.ts. Format: FORMAT.md.
import fs from 'node:fs';
import path from 'node:path';
import {
  type AppendListener,
  type AppendOptions,
  type EventCodec,
  type EventStore,
  type QuarantineEntry,
  type Slot,
  type Snapshot,
  type StoredEvent,
  EventStoreError,
  checkIndex,
  checkShape,
  closedError,
  defaultListenerError,
  duplicateError,
  encodeChecked,
  jsonCodec,
  notifyAll,
  readOnlyError,
  sliceBounds,
  unknownParentError,
} from './event-store';
import { GroupCommit } from './group-commit';
import {
  type AcceptedLoss,
  type LogEvidence,
  type LostEvents,
  type LostRange,
  acceptedSegmentNos,
  describeLostEvents,
  findLostEvents,
  missingSegmentNos,
  readAcceptedLosses,
  recordAcceptedLoss,
  segmentsGone,
} from './lost-events';
import { META, type Meta, metaText, readMeta } from './segment-meta';
import { IdIndex, idHash } from './id-index';
import { type HeldLock, type LockInfo, acquireLock } from './lock';
import { PosTable } from './pos-table';
import { Quarantine } from './quarantine';
import { RecentIds } from './recent-ids';
import { SegmentFiles } from './segment-files';
import { type ScanStart, cleanTail, cutTail, scanForward, validatedStart } from './segment-recovery';
import { SnapshotDir } from './snapshot-dir';
import { SegmentReader } from './segment-reader';
import { type SegmentIo, SegmentWriter, defaultIo } from './segment-writer';
import { SparseIndex } from './sparse-index';
import { TMP_SUFFIX, fsyncDirSync, writeFileDurable, writeFileDurableAsync } from './durable-file';

export type { SegmentIo } from './segment-writer';

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
  /** roll to a new segment when the current one would exceed this (default 8 MiB) */
  segmentBytes?: number;
  /** a sparse-index entry every N records (default 32); an existing log keeps its own */
  sparseStride?: number;
  /** longest wait before ordinary appends are fdatasync'ed (default 5 ms) */
  groupCommitMs?: number;
  /** fdatasync at once when this many bytes are pending (default 1 MiB) */
  groupCommitBytes?: number;
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

const SPARSE = 'sparse.idx';
/**
 * Space set aside for a full disk: freed when an append fails with ENOSPC, so the few records that
 * say the conversation stopped, and why, still fit (a reader must not find it still running).
 */
const RESERVE = 'reserve';
const RESERVE_BYTES = 32 * 1024;
const IDS = 'ids.idx';
const SEGMENTS = 'segments';

export class SegmentEventStore<E extends StoredEvent = StoredEvent> implements EventStore<E> {
  readonly readOnly: boolean;
  readonly lockHeldBy: string | null;
  readonly openReport: OpenReport;
  readonly dir: string;

  private readonly codec: EventCodec<E>;
  private readonly writable: boolean;
  private readonly lock: HeldLock | null;
  private readonly files: SegmentFiles;
  private readonly sparse: SparseIndex;
  private readonly stride: number;
  private readonly quarantine: Quarantine;
  private readonly reader: SegmentReader<E>;
  private readonly recent = new RecentIds(32_768);
  private readonly listeners = new Set<AppendListener<E>>();
  private readonly snapshots: SnapshotDir;
  private readonly committer: GroupCommit;
  private readonly io: SegmentIo;
  private readonly writer: SegmentWriter | null = null;
  private readonly keepAllSnapshots: boolean;
  private readonly opts: Required<
    Pick<SegmentStoreOptions<E>, 'segmentBytes' | 'checkpointRecords' | 'checkpointBytes'>
  >;
  private readonly onListenerError: (err: unknown) => void;

  private ids: IdIndex | null = null;
  private len = 0;
  private checkpoint: number;
  private bytesSinceCheckpoint = 0;
  private checkpointing: Promise<void> | null = null;
  /** meta.json on disk holds an `end` that matches the log (set by a clean open, cleared by appends) */
  private metaHasEnd = false;
  private closed = false;

  /** Opens (creating if needed) the log in `dir`. */
  static async open<E extends StoredEvent = StoredEvent>(
    dir: string,
    opts: SegmentStoreOptions<E> = {},
  ): Promise<SegmentEventStore<E>> {
    return new SegmentEventStore<E>(dir, opts);
  }

  private constructor(dir: string, options: SegmentStoreOptions<E>) {
    const t0 = performance.now();
    this.dir = dir;
    this.codec = options.codec ?? jsonCodec<E>();
    this.onListenerError = options.onListenerError ?? defaultListenerError;
    this.keepAllSnapshots = options.keepAllSnapshots ?? false;
    this.opts = {
      segmentBytes: options.segmentBytes ?? 8 * 1024 * 1024,
      checkpointRecords: options.checkpointRecords ?? 4096,
      checkpointBytes: options.checkpointBytes ?? 8 * 1024 * 1024,
    };
    this.io = { ...defaultIo, ...options.io };

    let lock: HeldLock | null = null;
    let heldBy: string | null = null;
    if (!options.readOnly) {
      const r = acquireLock(dir, undefined, options.lockHolder);
      if (r.acquired) lock = r.lock;
      else heldBy = r.message;
    }
    this.lock = lock;
    this.writable = lock !== null;
    this.readOnly = !this.writable;
    this.lockHeldBy = heldBy;

    try {
      if (this.writable) this.removeStrayTemps();
      const meta = readMeta(path.join(dir, META));
      // Everything that says how far the log reached is read before the segments are listed: a
      // writer appending meanwhile can only make the segments longer than what was read here.
      this.snapshots = new SnapshotDir(path.join(dir, 'snapshots'));
      const newestSnapshot = this.snapshots.newestIndex();
      const idsCount = fileSize(path.join(dir, IDS)) >> 2;
      let accepted = readAcceptedLosses(dir);
      this.files = new SegmentFiles(path.join(dir, SEGMENTS));
      this.stride = typeof meta === 'object' ? meta.stride : (options.sparseStride ?? 32);
      this.checkpoint = typeof meta === 'object' ? meta.checkpoint : 0;
      this.quarantine = new Quarantine(
        path.join(dir, 'quarantine'),
        this.files,
        this.writable,
        options.onQuarantine,
      );

      const wantEntries = Math.ceil(this.checkpoint / this.stride);
      this.sparse = SparseIndex.open(path.join(dir, SPARSE), this.stride, this.writable, wantEntries);
      this.reader = new SegmentReader<E>(
        this.files,
        this.sparse,
        this.stride,
        this.codec,
        this.quarantine,
        this.writable,
      );
      const lastSparse = wantEntries > 0 ? this.sparse.get(wantEntries - 1) : null;
      const evidence: LogEvidence = {
        present: this.files.numbers,
        metaCheckpoint: typeof meta === 'object' ? meta.checkpoint : 0,
        metaEndSegNo: typeof meta === 'object' ? (meta.end?.segNo ?? null) : null,
        lastSparse,
        newestSnapshot,
        idsCount,
        accepted: acceptedSegmentNos(accepted),
      };
      if (this.writable && !options.acceptLostEvents && segmentsGone(evidence)) {
        // Refused before anything is repaired or re-indexed, so the refusal writes nothing; a
        // read-only open of the same log says exactly what is gone.
        const probe = new SegmentEventStore<E>(dir, { ...options, readOnly: true });
        const found = probe.openReport.lostEvents;
        probe.disposeSync();
        if (found) throw lostDataError(dir, found);
      }
      const lastPresent = this.files.count > 0 ? this.files.noAt(this.files.count - 1) : 0;
      const missingBefore = missingSegmentNos(evidence).filter((no) => no < lastPresent);
      let rebuildReason: string | null = null;
      // A segment gone from the middle: only a full scan finds which records it held.
      if (missingBefore.length > 0) rebuildReason = 'a segment is missing';
      else if (meta === 'invalid') rebuildReason = 'meta.json is damaged';
      else if (meta === 'missing' && this.files.count > 0) rebuildReason = 'meta.json is missing';
      else if (this.sparse.count < wantEntries) rebuildReason = 'sparse index is missing or short';
      const clean = !rebuildReason && typeof meta === 'object' ? cleanTail(this.files, meta) : null;
      let scan: { bytes: number; truncatedBytes: number };
      const holes: LostRange[] = [];
      if (clean) {
        this.reader.table = new PosTable(clean.seq);
        this.reader.table.push(clean.segNo, clean.offset, clean.size);
        this.len = clean.seq + 1;
        this.metaHasEnd = true;
        scan = { bytes: clean.size, truncatedBytes: 0 };
      } else {
        let start: ScanStart | null = { segPos: 0, offset: 0, seq: 0 };
        if (!rebuildReason && this.sparse.count > 0) {
          start = validatedStart(this.files, this.sparse);
          if (!start) rebuildReason = 'sparse index does not match the segments';
        }
        if (rebuildReason || !start) {
          this.sparse.truncate(0);
          this.checkpoint = 0;
          start = { segPos: 0, offset: 0, seq: 0 };
        }
        this.reader.table = new PosTable(start.seq);
        scan = this.recoverFrom(start, holes);
      }
      const lost = findLostEvents(
        evidence,
        // A torn last record that was cut is reported as such (truncatedBytes), not again as lost.
        this.len + (scan.truncatedBytes > 0 ? 1 : 0),
        holes.filter((h) => !accepted.some((a) => a.ranges.some((r) => r.from <= h.from && h.to <= r.to))),
      );
      if (lost && this.writable) {
        if (!options.acceptLostEvents) throw lostDataError(dir, lost);
        accepted = [...accepted, this.acceptLoss(lost)];
      }
      if (this.writable) {
        keepReserve(path.join(dir, RESERVE));
        // A store written before snapshots were thinned keeps one every few hundred events: the
        // first writer to open it lets the extra ones go (the newest stays: it is also evidence
        // of how far the log reached).
        if (!options.keepAllSnapshots) this.snapshots.thin();
        const isNew = this.files.count === 0;
        this.writer = new SegmentWriter(this.files, this.io, this.opts.segmentBytes);
        if (isNew) {
          // A new log: the segments directory and the conversation directory are new entries in
          // their parents too, and must be on disk before a durable append is.
          this.writer.syncDirs([dir, path.dirname(path.resolve(dir))]);
          // meta.json from the start, so "missing" later means deleted, not "never checkpointed".
          if (meta === 'missing') this.writeMetaSync(0);
        }
      }
      this.committer = new GroupCommit({
        sync: () => this.syncAll(),
        delayMs: options.groupCommitMs ?? 5,
        maxPendingBytes: options.groupCommitBytes ?? 1024 * 1024,
        onSynced: (mark) => this.maybeCheckpoint(mark),
      });
      this.committer.reset(this.len);

      this.openReport = {
        length: this.len,
        readOnly: this.readOnly,
        lockHeldBy: heldBy,
        tookOverStaleLock: lock?.tookOver ?? null,
        truncatedBytes: scan.truncatedBytes,
        quarantined: [...this.quarantine.entries],
        indexRebuilt: rebuildReason !== null,
        rebuildReason,
        lostEvents: lost,
        acceptedLosses: accepted,
        scannedBytes: scan.bytes,
        openMs: performance.now() - t0,
      };
    } catch (err) {
      const partial = this as unknown as { files?: SegmentFiles; sparse?: SparseIndex };
      partial.files?.closeAll();
      partial.sparse?.close();
      lock?.release();
      throw err;
    }
  }

  /** Closes a read-only store that nothing has read from yet, synchronously. */
  private disposeSync(): void {
    this.closed = true;
    this.committer.dispose();
    this.files.closeAll();
    this.sparse.close();
  }

  private writeMetaSync(checkpoint: number): void {
    writeFileDurable(path.join(this.dir, META), metaText(this.stride, checkpoint));
  }

  /**
   * Records the user's choice to go on without `lost`: lost.json says so, the snapshots of the
   * lost events move to lost/snapshots, and meta.json stops claiming them (checkpoint 0: the next
   * open scans the log once and checkpoints it again). Returns the entry added to lost.json.
   */
  private acceptLoss(lost: LostEvents): AcceptedLoss {
    const entry = recordAcceptedLoss(this.dir, lost);
    this.snapshots.moveFrom(this.len, path.join(this.dir, 'lost', 'snapshots'));
    this.checkpoint = 0;
    this.writeMetaSync(0);
    return entry;
  }

  /**
   * Validates every record from `start` to the end, cutting a torn tail and recording holes (and,
   * in `missing`, the ranges of records simply absent: no damaged bytes where they were).
   */
  private recoverFrom(start: ScanStart, missing: LostRange[]): { bytes: number; truncatedBytes: number } {
    const hooks = this.reader.scanHooks(true);
    const scan = scanForward(this.files, start, {
      record: hooks.record,
      gap: (from, to, garbage, at) => {
        if (garbage.length === 0 && to > from) missing.push({ from, to });
        hooks.gap(from, to, garbage, at);
      },
    });
    const cut = cutTail(this.files, scan.trailing, this.writable);
    for (const g of cut.elsewhere) this.quarantine.add(g, -1, 0);
    this.len = scan.next;
    if (this.checkpoint > this.len) this.checkpoint = this.len;
    if (this.writable && this.checkpoint < this.len) {
      // Not closed cleanly: the last writer may have died with records in the page cache only,
      // possibly in several segments. Sync them now, so a later power cut cannot open a hole
      // under records we will append (and acknowledge) after them.
      for (let p = start.segPos; p < this.files.count; p++)
        fs.fdatasyncSync(this.files.fdOf(this.files.noAt(p)));
      fsyncDirSync(this.files.dir);
    }
    return { bytes: scan.bytes, truncatedBytes: cut.truncatedBytes };
  }

  get length(): number {
    return this.len;
  }

  get truncatedOnOpen(): number {
    return this.openReport.truncatedBytes;
  }

  get lostOnOpen(): LostEvents | null {
    return this.openReport.lostEvents;
  }

  /** every quarantined range known so far (open-time ones plus those found by later reads) */
  get quarantined(): readonly QuarantineEntry[] {
    return this.quarantine.entries;
  }

  // ---- appends ----

  append(e: E, opts?: AppendOptions): Promise<number> {
    let seq: number;
    try {
      seq = this.appendSync(e);
    } catch (err) {
      return Promise.reject(err);
    }
    if (opts?.durable)
      return this.committer.durable(seq + 1).then(
        () => seq,
        (err) => Promise.reject(ioError(err)),
      );
    return Promise.resolve(seq);
  }

  /** Validates, writes and indexes one record, notifies listeners and tells group commit; returns its seq. */
  private appendSync(e: E): number {
    if (this.closed) throw closedError();
    if (!this.writable) throw readOnlyError(this.lockHeldBy);
    const failed = this.writer?.failure ?? this.committer.failed;
    if (failed) throw ioError(failed);
    checkShape(e);
    const hash = idHash(e.id);
    const dup = this.findId(e.id, hash);
    if (dup >= 0) throw duplicateError(e.id, dup);
    const parent = e.parent_id;
    if (typeof parent === 'string' && this.findId(parent) < 0) throw unknownParentError(e.id, parent);
    const seq = this.len;
    const json = encodeChecked(this.codec, e);
    const writer = this.writer!;
    let size: number;
    try {
      size = writer.write(seq, json);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') releaseReserve(path.join(this.dir, RESERVE));
      throw new EventStoreError(
        'IO_FAILED',
        `append of event ${e.id} failed, nothing was recorded: ${String(err)}`,
        {
          cause: err,
        },
      );
    }
    const segNo = writer.segNo;
    const offset = writer.lastOffset;
    this.reader.table.push(segNo, offset, size);
    this.sparse.add(seq, segNo, offset);
    this.ids!.add(hash);
    this.recent.add(e.id, seq);
    this.len = seq + 1;
    this.bytesSinceCheckpoint += size;
    if (this.listeners.size > 0) notifyAll(this.listeners, e, seq, this.onListenerError);
    this.committer.wrote(this.len, size);
    return seq;
  }

  private async syncAll(): Promise<void> {
    // Index files trail the log and are only synced at checkpoints; writing them here keeps
    // the in-memory backlog small. They are caches: a failed write (a full disk) is retried at the
    // next sync and must not fail the log's own sync.
    try {
      this.sparse.writePending();
      this.ids?.writePending();
    } catch {
      /* retried later; open re-derives what never got written */
    }
    await this.writer!.sync();
  }

  private maybeCheckpoint(mark: number): void {
    if (!this.writable || this.checkpointing || !this.ids || this.closed) return;
    if (
      mark - this.checkpoint < this.opts.checkpointRecords &&
      this.bytesSinceCheckpoint < this.opts.checkpointBytes
    )
      return;
    this.checkpointing = this.writeCheckpoint(mark)
      .catch(() => {
        /* best effort: the next checkpoint retries, and open re-derives what is missing */
      })
      .finally(() => {
        this.checkpointing = null;
      });
  }

  /** Syncs the index files, then records in meta.json that records [0, mark) are covered by them. */
  private async writeCheckpoint(mark: number, end?: Meta['end']): Promise<void> {
    this.bytesSinceCheckpoint = 0;
    this.sparse.writePending();
    this.ids?.writePending();
    await this.sparse.sync();
    // No id index loaded means no append since open, so ids.idx already covers the checkpoint.
    await this.ids?.sync();
    this.metaHasEnd = false;
    await writeFileDurableAsync(path.join(this.dir, META), metaText(this.stride, mark, end), false);
    if (end) this.metaHasEnd = true;
    this.checkpoint = Math.max(this.checkpoint, mark);
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    return this.committer.flush().catch((err: unknown) => Promise.reject(ioError(err)));
  }

  // ---- ids ----

  /** Loads ids.idx on first need and derives the hashes the file lacks from the log. */
  private ensureIds(): IdIndex {
    if (this.ids) return this.ids;
    const ids = IdIndex.load(path.join(this.dir, IDS), this.writable, Math.min(this.checkpoint, this.len));
    if (ids.coveredCount < this.len) {
      this.reader.walk(ids.coveredCount, this.len, (seq, slot) => {
        if (this.reader.corrupt.has(seq)) ids.add(0);
        else {
          ids.add(idHash(slot.id));
          this.recent.add(slot.id, seq);
        }
      });
    }
    this.ids = ids;
    return ids;
  }

  private findId(id: string, hash = idHash(id)): number {
    const cands = this.ensureIds().candidates(hash);
    for (let i = 0; i < cands.length; i++) {
      const c = cands[i]!;
      if (this.reader.corrupt.has(c)) continue;
      // A recent record's id is known without reading the record (the common case at append).
      if ((this.recent.idAt(c) ?? this.reader.readOne(c).id) === id) return c;
    }
    return -1;
  }

  // ---- reads ----

  async get(index: number): Promise<Slot<E>> {
    if (this.closed) throw closedError();
    checkIndex(index, this.len);
    return this.reader.readOne(index);
  }

  async getById(id: string): Promise<E | undefined> {
    const i = await this.indexOf(id);
    return i < 0 ? undefined : (this.reader.readOne(i) as E);
  }

  async indexOf(id: string): Promise<number> {
    if (this.closed) throw closedError();
    return this.findId(id);
  }

  async slice(from?: number, to?: number): Promise<Slot<E>[]> {
    if (this.closed) throw closedError();
    const [a, b] = sliceBounds(this.len, from, to);
    const out: Slot<E>[] = [];
    if (b > a) this.reader.walk(a, b, (_seq, slot) => out.push(slot));
    return out;
  }

  async *iterate(from = 0): AsyncIterableIterator<Slot<E>> {
    let i = Math.max(0, from);
    while (i < this.len) {
      const batch = await this.slice(i, Math.min(i + 256, this.len));
      for (const s of batch) yield s;
      i += batch.length;
    }
  }

  // ---- subscriptions, snapshots, lifecycle ----

  subscribe(listener: AppendListener<E>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async writeSnapshot(index: number, json: string): Promise<void> {
    if (this.closed) throw closedError();
    if (!this.writable) throw readOnlyError(this.lockHeldBy);
    checkIndex(index, this.len);
    const e = this.reader.readOne(index);
    if (this.reader.corrupt.has(index)) {
      throw new EventStoreError('CORRUPT', `no snapshot at ${index}: that record is unreadable`);
    }
    // The snapshot must never be on disk while the events it covers are not.
    await this.committer.durable(index + 1);
    this.snapshots.write(index, e.id, json);
    if (!this.keepAllSnapshots) this.snapshots.thin();
  }

  async latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined> {
    if (this.closed) throw closedError();
    const limit = Math.min(atOrBefore ?? this.len - 1, this.len - 1);
    if (limit < 0) return undefined;
    return this.snapshots.latest(
      limit,
      (i, id) => !this.reader.corrupt.has(i) && this.reader.readOne(i).id === id,
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.writable && !this.writer?.failure && !this.committer.failed) {
        await this.committer.flush();
        await this.checkpointing;
        // Leave meta.json saying exactly where the log ends, so the next open validates one record.
        if (!this.metaHasEnd || this.checkpoint < this.len) {
          if (this.checkpoint < this.len) this.ensureIds();
          // The records are synced; the checkpoint only saves the next open a scan, so a full disk
          // here costs that scan, not the close.
          await this.writeCheckpoint(this.len, this.endMarker()).catch(() => undefined);
        }
      }
    } finally {
      this.closed = true;
      this.committer.dispose();
      await this.committer.idle();
      await this.checkpointing;
      this.files.closeAll();
      this.sparse.close();
      this.ids?.close();
      this.lock?.release();
      this.listeners.clear();
    }
  }

  /** The `end` a clean close records, when the last record is a readable one in the active segment. */
  private endMarker(): Meta['end'] {
    const last = this.len - 1;
    const t = this.reader.table;
    if (!this.writer || last < 0 || !t.has(last) || t.size(last) === 0) return undefined;
    if (t.segNo(last) !== this.writer.segNo) return undefined;
    return { segNo: this.writer.segNo, offset: this.writer.offset, last: t.offset(last) };
  }

  private removeStrayTemps(): void {
    for (const name of fs.readdirSync(this.dir)) {
      if (name.startsWith('.') && name.endsWith(TMP_SUFFIX))
        fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }
}

function lostDataError(dir: string, lost: LostEvents): EventStoreError {
  return new EventStoreError(
    'LOST_DATA',
    `events of the log in ${dir} are lost: ${describeLostEvents(lost)}. It is not opened for ` +
      'writing, so nothing is written over them, until the loss is accepted.',
  );
}

/** Creates the reserve file if it is missing; on a disk too full for it, goes without. */
function keepReserve(file: string): void {
  if (fs.existsSync(file)) return;
  try {
    // Not zeros: a filesystem that compresses or dedups them would set nothing aside.
    fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES, 'logbook reserve\n'));
  } catch {
    fs.rmSync(file, { force: true });
  }
}

function releaseReserve(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    /* already used */
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function ioError(err: unknown): EventStoreError {
  if (err instanceof EventStoreError) return err;
  return new EventStoreError('IO_FAILED', `the log could not be synced to disk: ${String(err)}`, {
    cause: err,
  });
}
