// SegmentEventStore: the default, crash-safe backend. On disk (one directory per conversation):
//
//   LOCK                  single-writer lock (lock.ts)
//   meta.json             format, sparse stride, checkpoint (records whose index files are synced)
//   segments/000001.log   records, one per line (record-format.ts), a new segment every ~32 MB
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
  wellShaped,
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
import { type LostEvents, readAcceptedLosses, segmentsGone } from './lost-events';
import { META, type Meta, readMeta } from './segment-meta';
import { idHash } from './id-index';
import { type HeldLock, acquireLock } from './lock';
import { Quarantine } from './quarantine';
import { SegmentFiles } from './segment-files';
import { SegmentIds } from './segment-ids';
import { acceptLoss, logEvidence, segmentsMissingBefore, unacceptedLoss } from './segment-losses';
import { IndexCheckpoints } from './index-checkpoints';
import { openTail } from './segment-tail';
import { SnapshotDir } from './snapshot-dir';
import { SegmentReader } from './segment-reader';
import { type SegmentIo, SegmentWriter, defaultIo } from './segment-writer';
import { SparseIndex } from './sparse-index';
import { removeLeftoverTemps } from './leftover-temps';
import { DEFAULT_SEGMENT_BYTES, type OpenReport, type SegmentStoreOptions } from './segment-store-options';
import { RESERVE, keepReserve, releaseReserve } from './disk-reserve';
import { ioError, lostDataError } from './segment-store-errors';

export type { SegmentIo } from './segment-writer';
export type { OpenReport, SegmentStoreOptions } from './segment-store-options';

const SPARSE = 'sparse.idx';
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

  private readonly ids: SegmentIds<E>;
  private len = 0;
  private readonly checkpoints: IndexCheckpoints;
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
      segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
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
      this.snapshots = new SnapshotDir(path.join(dir, 'snapshots'), options.deferSnapshotSyncs ?? false);
      const newestSnapshot = this.snapshots.newestIndex();
      const idsCount = fileSize(path.join(dir, IDS)) >> 2;
      let accepted = readAcceptedLosses(dir);
      this.files = new SegmentFiles(path.join(dir, SEGMENTS));
      this.stride = typeof meta === 'object' ? meta.stride : (options.sparseStride ?? 32);
      const checkpoint = typeof meta === 'object' ? meta.checkpoint : 0;
      this.quarantine = new Quarantine(
        path.join(dir, 'quarantine'),
        this.files,
        this.writable,
        options.onQuarantine,
      );

      const wantEntries = Math.ceil(checkpoint / this.stride);
      this.sparse = SparseIndex.open(path.join(dir, SPARSE), this.stride, this.writable, wantEntries);
      this.reader = new SegmentReader<E>(
        this.files,
        this.sparse,
        this.stride,
        this.codec,
        this.quarantine,
        this.writable,
      );
      this.ids = new SegmentIds(path.join(dir, IDS), this.writable, this.reader, () => ({
        length: this.len,
        checkpoint: this.checkpoints.covered,
      }));
      const lastSparse = wantEntries > 0 ? this.sparse.get(wantEntries - 1) : null;
      const evidence = logEvidence(meta, this.files, { lastSparse, newestSnapshot, idsCount, accepted });
      if (this.writable && !options.acceptLostEvents && segmentsGone(evidence)) {
        // Refused before anything is repaired or re-indexed, so the refusal writes nothing; a
        // read-only open of the same log says exactly what is gone.
        const probe = new SegmentEventStore<E>(dir, { ...options, readOnly: true });
        const found = probe.openReport.lostEvents;
        probe.disposeSync();
        if (found) throw lostDataError(dir, found);
      }
      const missingBefore = segmentsMissingBefore(evidence, this.files);
      const tail = openTail(
        { files: this.files, sparse: this.sparse, reader: this.reader, quarantine: this.quarantine },
        { meta, missingBefore, wantEntries, checkpoint },
        this.writable,
      );
      const { scan, holes, rebuildReason } = tail;
      this.len = tail.length;
      this.checkpoints = new IndexCheckpoints(
        dir,
        this.stride,
        { sparse: this.sparse, ids: this.ids },
        { records: this.opts.checkpointRecords, bytes: this.opts.checkpointBytes },
        tail.checkpoint,
        tail.metaHasEnd,
      );
      const lost = unacceptedLoss(
        evidence,
        { length: this.len, truncatedBytes: scan.truncatedBytes, holes },
        accepted,
      );
      if (lost && this.writable) {
        if (!options.acceptLostEvents) throw lostDataError(dir, lost);
        accepted = [...accepted, acceptLoss(dir, lost, this.len, this.snapshots, this.checkpoints)];
      }
      if (this.writable) {
        keepReserve(path.join(dir, RESERVE));
        // A store written before snapshots were thinned keeps one every few hundred events: the
        // first writer to open it lets the extra ones go (the newest stays: it is also evidence
        // of how far the log reached).
        if (!options.keepAllSnapshots) this.snapshots.thin();
        const isNew = this.files.count === 0;
        this.writer = new SegmentWriter(
          this.files,
          this.io,
          this.opts.segmentBytes,
          options.writeBatchBytes ?? 0,
        );
        if (isNew) {
          // A new log: the segments directory and the conversation directory are new entries in
          // their parents too, and must be on disk before a durable append is.
          this.writer.syncDirs([dir, path.dirname(path.resolve(dir))]);
          // meta.json from the start, so "missing" later means deleted, not "never checkpointed".
          if (meta === 'missing') this.checkpoints.writeMetaSync(0);
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
    // Each field is read once: events come in many shapes, so every read is a megamorphic lookup (W1).
    const id = typeof e === 'object' && e !== null ? e.id : undefined;
    const parent = id === undefined ? undefined : e.parent_id;
    if (!wellShaped(e, id, parent)) checkShape(e);
    const hash = idHash(id!);
    const dup = this.ids.find(id!, hash);
    if (dup >= 0) throw duplicateError(id!, dup);
    if (typeof parent === 'string' && !this.ids.has(parent)) throw unknownParentError(id!, parent);
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
    this.ids.add(hash, id!, seq);
    this.len = seq + 1;
    this.checkpoints.wrote(size);
    if (this.listeners.size > 0) notifyAll(this.listeners, e, seq, this.onListenerError);
    this.committer.wrote(this.len, size);
    return seq;
  }

  private async syncAll(): Promise<void> {
    // The log before its indexes: an index entry must never point past the records on disk.
    this.writer!.writeHeld();
    // Index files trail the log and are only synced at checkpoints; writing them here keeps
    // the in-memory backlog small. They are caches: a failed write (a full disk) is retried at the
    // next sync and must not fail the log's own sync.
    try {
      this.sparse.writePending();
      this.ids.writePending();
    } catch {
      /* retried later; open re-derives what never got written */
    }
    await this.writer!.sync();
  }

  private maybeCheckpoint(mark: number): void {
    if (!this.writable || !this.ids.loaded || this.closed) return;
    this.checkpoints.maybe(mark);
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    return this.committer.flush().catch((err: unknown) => Promise.reject(ioError(err)));
  }

  // ---- reads ----

  /** Records a batching writer holds are written before anything is read back. */
  private readable(): void {
    try {
      this.writer?.writeHeld();
    } catch (err) {
      throw ioError(err);
    }
  }

  async get(index: number): Promise<Slot<E>> {
    if (this.closed) throw closedError();
    checkIndex(index, this.len);
    this.readable();
    return this.reader.readOne(index);
  }

  async getById(id: string): Promise<E | undefined> {
    const i = await this.indexOf(id);
    if (i < 0) return undefined;
    this.readable();
    return this.reader.readOne(i) as E;
  }

  async indexOf(id: string): Promise<number> {
    if (this.closed) throw closedError();
    return this.ids.find(id);
  }

  async slice(from?: number, to?: number): Promise<Slot<E>[]> {
    if (this.closed) throw closedError();
    const [a, b] = sliceBounds(this.len, from, to);
    const out: Slot<E>[] = [];
    this.readable();
    if (b > a) this.reader.walk(a, b, (_seq, slot) => out.push(slot));
    return out;
  }

  async readAt(positions: readonly number[]): Promise<Slot<E>[]> {
    if (this.closed) throw closedError();
    this.readable();
    return this.reader.readAt(positions.filter((p) => Number.isInteger(p) && p >= 0 && p < this.len));
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
    this.readable();
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
    this.readable();
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
        await this.snapshots.syncWritten();
        await this.checkpoints.pending;
        // Leave meta.json saying exactly where the log ends, so the next open validates one record.
        const { covered, metaHasEnd } = this.checkpoints;
        if (!metaHasEnd || covered < this.len) {
          if (covered < this.len) this.ids.ensure();
          // The records are synced; the checkpoint only saves the next open a scan, so a full disk
          // here costs that scan, not the close.
          await this.checkpoints.write(this.len, this.endMarker()).catch(() => undefined);
        }
      }
    } finally {
      this.closed = true;
      this.committer.dispose();
      await this.committer.idle();
      await this.checkpoints.pending;
      await this.writer?.closeSpare();
      this.files.closeAll();
      this.sparse.close();
      this.ids.close();
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

  /** Temp files a writer killed before its rename left (see leftover-temps.ts). */
  private removeStrayTemps(): void {
    removeLeftoverTemps(this.dir);
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
