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
// Opening reads meta.json and the index tails and validates only the records after the last
// checkpointed sparse entry, so it costs the same for 100 or 1,000,000 events (after a crash, at
// most the records since the last checkpoint). Appends write synchronously (in call order) and share
// fdatasyncs through group commit; see AppendOptions for what a resolved append guarantees.
import fs from 'node:fs';
import path from 'node:path';
import {
  type AppendListener,
  type AppendOptions,
  type CorruptRecord,
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
  corruptRecord,
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
import { IdIndex, idHash } from './id-index';
import { type HeldLock, type LockInfo, acquireLock } from './lock';
import { PosTable } from './pos-table';
import { Quarantine } from './quarantine';
import { RecentIds } from './recent-ids';
import { RecordEncoder } from './record-format';
import { type CursorGarbage, type CursorRecord, SegmentCursor } from './segment-cursor';
import { SegmentFiles } from './segment-files';
import { type ScanStart, cutTail, scanForward, staleAsGarbage, validatedStart } from './segment-recovery';
import { SnapshotDir } from './snapshot-dir';
import { SparseIndex, fdatasync } from './sparse-index';
import { TMP_SUFFIX, fsyncDirSync, writeFileDurable, writeFileDurableAsync } from './durable-file';

export interface SegmentIo {
  write(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number;
  fdatasync(fd: number): Promise<void>;
}

export interface SegmentStoreOptions<E extends StoredEvent> {
  codec?: EventCodec<E>;
  /** open read-only even when the lock is free */
  readOnly?: boolean;
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
  /** bytes validated at open */
  scannedBytes: number;
  openMs: number;
}

interface Meta {
  format: 'logbook-segment-log';
  version: 1;
  stride: number;
  checkpoint: number;
  /** written by a clean close only: where the log ended and where its last record starts */
  end?: { segNo: number; offset: number; last: number };
}

const META = 'meta.json';
const SPARSE = 'sparse.idx';
const IDS = 'ids.idx';
const SEGMENTS = 'segments';

function readMeta(file: string): Meta | 'missing' | 'invalid' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'invalid';
  }
  try {
    const m = JSON.parse(text) as Partial<Meta>;
    if (m.format !== 'logbook-segment-log' || m.version !== 1) return 'invalid';
    if (!Number.isInteger(m.stride) || m.stride! < 1 || !Number.isInteger(m.checkpoint) || m.checkpoint! < 0)
      return 'invalid';
    return m as Meta;
  } catch {
    return 'invalid';
  }
}

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
  private readonly corrupt = new Map<number, CorruptRecord>();
  private readonly table: PosTable;
  private readonly recent = new RecentIds(32_768);
  private readonly listeners = new Set<AppendListener<E>>();
  private readonly snapshots: SnapshotDir;
  private readonly committer: GroupCommit;
  private readonly io: SegmentIo;
  private readonly encoder = new RecordEncoder();
  private readonly opts: Required<
    Pick<SegmentStoreOptions<E>, 'segmentBytes' | 'checkpointRecords' | 'checkpointBytes'>
  >;
  private readonly onListenerError: (err: unknown) => void;

  private ids: IdIndex | null = null;
  private len = 0;
  private checkpoint: number;
  private activeNo = 0;
  private activeFd = -1;
  private activeSize = 0;
  private readonly dirtyFds = new Set<number>();
  /** directories whose new entries must be fsynced before the next sync completes */
  private readonly dirsToSync = new Set<string>();
  private bytesSinceCheckpoint = 0;
  private checkpointing: Promise<void> | null = null;
  /** meta.json on disk holds an `end` that matches the log (set by a clean open, cleared by appends) */
  private metaHasEnd = false;
  private failure: unknown = null;
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
    this.opts = {
      segmentBytes: options.segmentBytes ?? 8 * 1024 * 1024,
      checkpointRecords: options.checkpointRecords ?? 4096,
      checkpointBytes: options.checkpointBytes ?? 8 * 1024 * 1024,
    };
    this.io = {
      write: options.io?.write ?? ((fd, b, o, l, p) => fs.writeSync(fd, b, o, l, p)),
      fdatasync: options.io?.fdatasync ?? fdatasync,
    };

    let lock: HeldLock | null = null;
    let heldBy: string | null = null;
    if (!options.readOnly) {
      const r = acquireLock(dir);
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
      this.files = new SegmentFiles(path.join(dir, SEGMENTS));
      this.stride = typeof meta === 'object' ? meta.stride : (options.sparseStride ?? 32);
      this.checkpoint = typeof meta === 'object' ? meta.checkpoint : 0;
      this.quarantine = new Quarantine(
        path.join(dir, 'quarantine'),
        this.files,
        this.writable,
        options.onQuarantine,
      );
      this.snapshots = new SnapshotDir(path.join(dir, 'snapshots'));

      const wantEntries = Math.ceil(this.checkpoint / this.stride);
      this.sparse = SparseIndex.open(path.join(dir, SPARSE), this.stride, this.writable, wantEntries);
      let rebuildReason: string | null = null;
      if (meta === 'invalid') rebuildReason = 'meta.json is damaged';
      else if (meta === 'missing' && this.files.count > 0) rebuildReason = 'meta.json is missing';
      else if (this.sparse.count < wantEntries) rebuildReason = 'sparse index is missing or short';
      const clean = !rebuildReason && typeof meta === 'object' ? this.cleanTail(meta) : null;
      let scan: { bytes: number; truncatedBytes: number };
      if (clean) {
        this.table = new PosTable(clean.seq);
        this.table.push(clean.segNo, clean.offset, clean.size);
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
        this.table = new PosTable(start.seq);
        scan = this.recoverFrom(start);
      }
      if (this.writable) {
        if (this.files.count === 0) {
          // A new log: the segment, the segments directory and the conversation directory are all
          // new entries in their parents, and must be on disk before a durable append is.
          this.files.create();
          for (const d of [this.files.dir, dir, path.dirname(path.resolve(dir))]) this.dirsToSync.add(d);
          // meta.json from the start, so "missing" later means deleted, not "never checkpointed".
          if (meta === 'missing') this.writeMetaSync(0);
        }
        this.activeNo = this.files.noAt(this.files.count - 1);
        this.activeFd = this.files.openForWrite(this.activeNo);
        this.activeSize = this.files.sizeAt(this.files.count - 1);
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

  private metaText(checkpoint: number, end?: Meta['end']): string {
    const meta: Meta = {
      format: 'logbook-segment-log',
      version: 1,
      stride: this.stride,
      checkpoint,
      ...(end ? { end } : {}),
    };
    return JSON.stringify(meta) + '\n';
  }

  private writeMetaSync(checkpoint: number): void {
    writeFileDurable(path.join(this.dir, META), this.metaText(checkpoint));
  }

  /**
   * The log exactly as the last clean close left it (meta.json's `end` matches the last segment's
   * size, and the last record is valid and has the expected seq): nothing else to validate.
   */
  private cleanTail(meta: Meta): { seq: number; segNo: number; offset: number; size: number } | null {
    const end = meta.end;
    const last = this.files.count - 1;
    if (!end || meta.checkpoint === 0 || last < 0) return null;
    if (this.files.noAt(last) !== end.segNo || this.files.sizeAt(last) !== end.offset) return null;
    const item = new SegmentCursor(this.files, last, end.last, 64 * 1024).next();
    if (
      item?.type !== 'record' ||
      item.seq !== meta.checkpoint - 1 ||
      item.offset + item.size !== end.offset
    ) {
      return null;
    }
    return { seq: item.seq, segNo: end.segNo, offset: item.offset, size: item.size };
  }

  /** Validates every record from `start` to the end, cutting a torn tail and recording holes. */
  private recoverFrom(start: ScanStart): { bytes: number; truncatedBytes: number } {
    const scan = scanForward(this.files, start, {
      record: (seq, segNo, offset, size) => {
        this.table.push(segNo, offset, size);
        this.sparse.add(seq, segNo, offset);
      },
      gap: (a, b, garbage, at) => {
        this.registerGap(a, b, garbage);
        const where = this.gapStart(garbage, at);
        for (let s = a; s < b; s++) {
          this.table.push(where.segNo, where.offset, 0);
          this.sparse.add(s, where.segNo, where.offset);
        }
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

  /** every quarantined range known so far (open-time ones plus those found by later reads) */
  get quarantined(): readonly QuarantineEntry[] {
    return this.quarantine.entries;
  }

  // ---- appends ----

  append(e: E, opts?: AppendOptions): Promise<number> {
    let seq: number;
    let bytes: number;
    try {
      ({ seq, bytes } = this.appendSync(e));
    } catch (err) {
      return Promise.reject(err);
    }
    this.committer.wrote(this.len, bytes);
    if (opts?.durable)
      return this.committer.durable(seq + 1).then(
        () => seq,
        (err) => Promise.reject(ioError(err)),
      );
    return Promise.resolve(seq);
  }

  private appendSync(e: E): { seq: number; bytes: number } {
    if (this.closed) throw closedError();
    if (!this.writable) throw readOnlyError(this.lockHeldBy);
    const failed = this.failure ?? this.committer.failed;
    if (failed) throw ioError(failed);
    checkShape(e);
    const hash = idHash(e.id);
    const at = this.findId(e.id, hash);
    if (at >= 0) throw duplicateError(e.id, at);
    const parent = e.parent_id;
    if (typeof parent === 'string' && this.findId(parent) < 0) throw unknownParentError(e.id, parent);
    const seq = this.len;
    const rec = this.encoder.encode(seq, encodeChecked(this.codec, e));
    if (this.activeSize > 0 && this.activeSize + rec.length > this.opts.segmentBytes) this.roll();
    const pos = this.activeSize;
    try {
      let done = 0;
      while (done < rec.length)
        done += this.io.write(this.activeFd, rec, done, rec.length - done, pos + done);
    } catch (err) {
      this.undoPartialWrite(pos);
      throw new EventStoreError(
        'IO_FAILED',
        `append of event ${e.id} failed, nothing was recorded: ${String(err)}`,
        {
          cause: err,
        },
      );
    }
    this.activeSize = pos + rec.length;
    this.files.setSize(this.activeNo, this.activeSize);
    this.table.push(this.activeNo, pos, rec.length);
    this.sparse.add(seq, this.activeNo, pos);
    this.ids!.add(hash);
    this.recent.add(e.id, seq);
    this.len = seq + 1;
    this.dirtyFds.add(this.activeFd);
    this.bytesSinceCheckpoint += rec.length;
    notifyAll(this.listeners, e, seq, this.onListenerError);
    return { seq, bytes: rec.length };
  }

  /** A failed write may have left part of the record: cut it so it is never counted or read. */
  private undoPartialWrite(pos: number): void {
    try {
      fs.ftruncateSync(this.activeFd, pos);
    } catch (err) {
      // Cannot restore a clean end: refuse further appends; reopening repairs the tail.
      this.failure = err;
    }
  }

  private roll(): void {
    const { no, fd } = this.files.create();
    this.activeNo = no;
    this.activeFd = fd;
    this.activeSize = 0;
    // The new file's directory entry must reach the disk before anything in it is durable.
    this.dirsToSync.add(this.files.dir);
  }

  private async syncAll(): Promise<void> {
    const fds = [...this.dirtyFds];
    this.dirtyFds.clear();
    const dirs = [...this.dirsToSync];
    this.dirsToSync.clear();
    // Index files trail the log and are only synced at checkpoints; writing them here keeps
    // the in-memory backlog small.
    this.sparse.writePending();
    this.ids?.writePending();
    await Promise.all(fds.map((fd) => this.io.fdatasync(fd)));
    for (const dir of dirs) {
      const d = await fs.promises.open(dir, 'r');
      try {
        await d.sync();
      } finally {
        await d.close();
      }
    }
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
    await writeFileDurableAsync(path.join(this.dir, META), this.metaText(mark, end), false);
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
      this.walk(ids.coveredCount, this.len, (seq, slot) => {
        if (this.corrupt.has(seq)) ids.add(0);
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
    const r = this.recent.get(id);
    if (r !== undefined) return r;
    for (const c of this.ensureIds().candidates(hash)) {
      if (this.corrupt.has(c)) continue;
      if (this.readOne(c).id === id) return c;
    }
    return -1;
  }

  // ---- reads ----

  async get(index: number): Promise<Slot<E>> {
    if (this.closed) throw closedError();
    checkIndex(index, this.len);
    return this.readOne(index);
  }

  async getById(id: string): Promise<E | undefined> {
    const i = await this.indexOf(id);
    return i < 0 ? undefined : (this.readOne(i) as E);
  }

  async indexOf(id: string): Promise<number> {
    if (this.closed) throw closedError();
    return this.findId(id);
  }

  async slice(from?: number, to?: number): Promise<Slot<E>[]> {
    if (this.closed) throw closedError();
    const [a, b] = sliceBounds(this.len, from, to);
    const out: Slot<E>[] = [];
    if (b > a) this.walk(a, b, (_seq, slot) => out.push(slot));
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

  private readOne(index: number): Slot<E> {
    let out: Slot<E> | undefined;
    this.walk(index, index + 1, (_s, slot) => (out = slot));
    return out!;
  }

  /** Emits slots [from, to) in order, reading sequentially from the nearest known position. */
  private walk(from: number, to: number, emit: (seq: number, slot: Slot<E>) => void): void {
    let seq = from;
    while (seq < to) {
      const c = this.corrupt.get(seq);
      if (c) {
        emit(seq, c);
        seq++;
      } else seq = this.walkRun(seq, to, emit);
    }
  }

  private walkRun(from: number, to: number, emit: (seq: number, slot: Slot<E>) => void): number {
    const start = this.locate(from);
    const cur = new SegmentCursor(this.files, start.segPos, start.offset, 256 * 1024);
    let expected = start.seq;
    let pending: CursorGarbage[] = [];
    let seq = from;
    while (seq < to) {
      const item = cur.next();
      if (!item) {
        this.registerGap(expected, to, pending, 'record missing');
        for (; seq < to; seq++) emit(seq, this.corrupt.get(seq)!);
        return seq;
      }
      if (item.type === 'garbage') {
        pending.push(item);
        continue;
      }
      if (item.seq < expected) {
        pending.push(staleAsGarbage(item.segPos, item.offset, item.size, item.seq));
        continue;
      }
      if (item.seq > expected || pending.length > 0) {
        this.registerGap(expected, item.seq, pending);
        pending = [];
        for (; seq < item.seq && seq < to; seq++) emit(seq, this.corrupt.get(seq)!);
      }
      expected = item.seq + 1;
      if (item.seq === seq && seq < to) {
        emit(seq, this.decode(item));
        seq++;
      }
    }
    return seq;
  }

  private locate(seq: number): ScanStart {
    if (this.table.has(seq)) {
      const segPos = this.files.posOf(this.table.segNo(seq));
      if (segPos >= 0) return { segPos, offset: this.table.offset(seq), seq };
    }
    const k = Math.floor(seq / this.stride);
    let e = this.sparse.get(k);
    if (!e || this.files.posOf(e.segNo) < 0) {
      this.rebuildSparse();
      e = this.sparse.get(k);
    }
    if (!e || this.files.posOf(e.segNo) < 0) {
      throw new EventStoreError('CORRUPT', `cannot locate record ${seq}: the sparse index cannot be rebuilt`);
    }
    return { segPos: this.files.posOf(e.segNo), offset: e.offset, seq: e.seq };
  }

  /** A damaged entry was found by a read: rebuild the whole sparse index from the segments. */
  private rebuildSparse(): void {
    this.sparse.truncate(0);
    scanForward(
      this.files,
      { segPos: 0, offset: 0, seq: 0 },
      {
        record: (seq, segNo, offset) => this.sparse.add(seq, segNo, offset),
        gap: (a, b, garbage, at) => {
          this.registerGap(a, b, garbage);
          const where = this.gapStart(garbage, at);
          for (let s = a; s < b; s++) this.sparse.add(s, where.segNo, where.offset);
        },
      },
    );
    if (this.writable) this.sparse.writePending();
  }

  private decode(item: CursorRecord): Slot<E> {
    const text = item.buf.toString('utf8', item.jsonStart, item.jsonStart + item.jsonLen);
    try {
      return this.codec.decode(text, item.seq);
    } catch (err) {
      const c = corruptRecord(item.seq, `record cannot be decoded: ${String(err)}`);
      this.corrupt.set(item.seq, c);
      return c;
    }
  }

  /**
   * Where a lost slot "is": the first garbage byte (so a later read finds the garbage again and
   * reports why) or, when records are simply missing, the next valid record.
   */
  private gapStart(
    garbage: CursorGarbage[],
    at: { segNo: number; offset: number },
  ): { segNo: number; offset: number } {
    const g = garbage[0];
    return g ? { segNo: this.files.noAt(g.segPos), offset: g.offset } : at;
  }

  /** Slots [from, to) are unreadable because of `garbage` (or simply absent). */
  private registerGap(from: number, to: number, garbage: CursorGarbage[], missing = 'record missing'): void {
    const reason = garbage[0]?.reason ?? missing;
    for (let s = from; s < to; s++) {
      if (!this.corrupt.has(s)) this.corrupt.set(s, corruptRecord(s, reason));
    }
    garbage.forEach((g, i) =>
      this.quarantine.add(g, i === 0 && to > from ? from : -1, i === 0 ? to - from : 0),
    );
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
    const e = this.readOne(index);
    if (this.corrupt.has(index)) {
      throw new EventStoreError('CORRUPT', `no snapshot at ${index}: that record is unreadable`);
    }
    // The snapshot must never be on disk while the events it covers are not.
    await this.committer.durable(index + 1);
    this.snapshots.write(index, e.id, json);
  }

  async latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined> {
    if (this.closed) throw closedError();
    const limit = Math.min(atOrBefore ?? this.len - 1, this.len - 1);
    if (limit < 0) return undefined;
    return this.snapshots.latest(limit, (i, id) => !this.corrupt.has(i) && this.readOne(i).id === id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.writable && !this.failure && !this.committer.failed) {
        await this.committer.flush();
        await this.checkpointing;
        // Leave meta.json saying exactly where the log ends, so the next open validates one record.
        if (!this.metaHasEnd || this.checkpoint < this.len) {
          if (this.checkpoint < this.len) this.ensureIds();
          await this.writeCheckpoint(this.len, this.endMarker());
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
    if (last < 0 || !this.table.has(last) || this.table.size(last) === 0) return undefined;
    if (this.table.segNo(last) !== this.activeNo) return undefined;
    return { segNo: this.activeNo, offset: this.activeSize, last: this.table.offset(last) };
  }

  private removeStrayTemps(): void {
    for (const name of fs.readdirSync(this.dir)) {
      if (name.startsWith('.') && name.endsWith(TMP_SUFFIX))
        fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }
}

function ioError(err: unknown): EventStoreError {
  if (err instanceof EventStoreError) return err;
  return new EventStoreError('IO_FAILED', `the log could not be synced to disk: ${String(err)}`, {
    cause: err,
  });
}
