// OpenHandsDirStore: the OpenHands SDK conversation layout, for import/export and interop.
//
//   base_state.json
//   events/event-00000-<id>.json   one file per event, 5+ digit index, the event's JSON
//
// Each append writes a temp file, fsyncs it and renames it into place (the directory is fsynced
// too for durable appends), in call order. Opening must list the events directory (O(history)),
// which is why this is the interop backend and the segment log is the default.
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
import { type HeldLock, type LockInfo, acquireLock } from './lock';
import { SnapshotDir } from './snapshot-dir';
import { TMP_SUFFIX, writeFileDurable, writeFileDurableAsync } from './durable-file';
import { removeLeftoverTemps } from './leftover-temps';
import { FileReadAhead } from './file-read-ahead';

/** The SDK's own pattern (persistence_const.py): index of 5+ digits, id of hex digits and dashes. */
const EVENT_FILE = /^event-(\d{5,})-([0-9a-fA-F-]{8,})\.json$/;
const EVENTS_DIR = 'events';
const BASE_STATE = 'base_state.json';

export function eventFileName(index: number, id: string): string {
  return `event-${String(index).padStart(5, '0')}-${id}.json`;
}

export interface OpenHandsStoreOptions<E extends StoredEvent> {
  codec?: EventCodec<E>;
  readOnly?: boolean;
  onListenerError?: (err: unknown) => void;
  /**
   * Read-only, and the folder holds at least this many events: `slice` and `iterate` read the
   * event files ahead on a worker thread (file-read-ahead.ts). For an import, which reads them all.
   */
  readAheadFrom?: number;
}

export interface OpenHandsOpenReport {
  length: number;
  readOnly: boolean;
  lockHeldBy: string | null;
  tookOverStaleLock: LockInfo | null;
  /** leftovers of interrupted writes, removed (writable) or ignored */
  tempFiles: string[];
  /** indices with no event file, served as CorruptRecord */
  missing: number[];
  /** event files ignored because another file already has their index */
  duplicates: string[];
  openMs: number;
}

export class OpenHandsDirStore<E extends StoredEvent = StoredEvent> implements EventStore<E> {
  readonly readOnly: boolean;
  readonly lockHeldBy: string | null;
  readonly openReport: OpenHandsOpenReport;
  readonly dir: string;
  readonly quarantined: QuarantineEntry[] = [];

  private readonly codec: EventCodec<E>;
  private readonly lock: HeldLock | null;
  private readonly eventsDir: string;
  private readonly names: (string | undefined)[] = [];
  private readonly ids = new Map<string, number>();
  private readonly corrupt = new Map<number, CorruptRecord>();
  /** encoded events whose file is still being written */
  private readonly pending = new Map<number, string>();
  private readonly listeners = new Set<AppendListener<E>>();
  private readonly snapshots: SnapshotDir;
  private readonly onListenerError: (err: unknown) => void;
  private queue: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private closed = false;
  private readAheadFrom: number;
  private ahead: FileReadAhead | null = null;

  static async open<E extends StoredEvent = StoredEvent>(
    dir: string,
    opts: OpenHandsStoreOptions<E> = {},
  ): Promise<OpenHandsDirStore<E>> {
    return new OpenHandsDirStore<E>(dir, opts);
  }

  private constructor(dir: string, opts: OpenHandsStoreOptions<E>) {
    const t0 = performance.now();
    this.dir = dir;
    this.codec = opts.codec ?? jsonCodec<E>();
    this.onListenerError = opts.onListenerError ?? defaultListenerError;
    this.readAheadFrom = opts.readOnly ? (opts.readAheadFrom ?? Infinity) : Infinity;
    this.eventsDir = path.join(dir, EVENTS_DIR);
    this.snapshots = new SnapshotDir(path.join(dir, 'snapshots'));
    let lock: HeldLock | null = null;
    let heldBy: string | null = null;
    if (!opts.readOnly) {
      const r = acquireLock(dir);
      if (r.acquired) lock = r.lock;
      else heldBy = r.message;
    }
    this.lock = lock;
    this.readOnly = lock === null;
    this.lockHeldBy = heldBy;
    if (lock) {
      removeLeftoverTemps(dir);
    }

    const tempFiles: string[] = [];
    const duplicates: string[] = [];
    let names: string[] = [];
    try {
      if (lock) fs.mkdirSync(this.eventsDir, { recursive: true });
      names = fs.readdirSync(this.eventsDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        lock?.release();
        throw err;
      }
    }
    for (const name of names) {
      const m = EVENT_FILE.exec(name);
      if (!m) {
        if (name.endsWith(TMP_SUFFIX)) {
          tempFiles.push(name);
          if (lock) fs.rmSync(path.join(this.eventsDir, name), { force: true });
        }
        continue;
      }
      const index = Number(m[1]);
      const id = m[2]!;
      const taken = this.names[index];
      // Two files for one index: keep the lexically first so every open decides the same way.
      if (taken !== undefined) {
        if (name < taken) {
          duplicates.push(taken);
          this.ids.delete(EVENT_FILE.exec(taken)![2]!);
        } else {
          duplicates.push(name);
          continue;
        }
      }
      this.names[index] = name;
      this.ids.set(id, index);
    }
    const missing: number[] = [];
    for (let i = 0; i < this.names.length; i++) {
      if (this.names[i] === undefined) {
        missing.push(i);
        this.corrupt.set(i, corruptRecord(i, 'event file missing'));
      }
    }
    this.openReport = {
      length: this.names.length,
      readOnly: this.readOnly,
      lockHeldBy: heldBy,
      tookOverStaleLock: lock?.tookOver ?? null,
      tempFiles,
      missing,
      duplicates,
      openMs: performance.now() - t0,
    };
  }

  get length(): number {
    return this.names.length;
  }

  append(e: E, opts?: AppendOptions): Promise<number> {
    let index: number;
    let file: string;
    let json: string;
    try {
      if (this.closed) throw closedError();
      if (this.readOnly) throw readOnlyError(this.lockHeldBy);
      if (this.failure) throw ioFailed(this.failure);
      checkShape(e);
      if (!/^[0-9a-fA-F-]{8,}$/.test(e.id)) {
        throw new EventStoreError(
          'INVALID_EVENT',
          `event id "${e.id}" cannot be stored in the OpenHands layout (it reads ids of 8+ hex digits and dashes)`,
        );
      }
      const at = this.ids.get(e.id);
      if (at !== undefined) throw duplicateError(e.id, at);
      const parent = e.parent_id;
      if (typeof parent === 'string' && !this.ids.has(parent)) throw unknownParentError(e.id, parent);
      json = encodeChecked(this.codec, e);
      index = this.names.length;
      const name = eventFileName(index, e.id);
      file = path.join(this.eventsDir, name);
      this.names.push(name);
      this.ids.set(e.id, index);
      this.pending.set(index, json);
    } catch (err) {
      return Promise.reject(err);
    }
    notifyAll(this.listeners, e, index, this.onListenerError);
    const durable = opts?.durable === true;
    const done = this.queue.then(async () => {
      if (this.failure) throw ioFailed(this.failure);
      try {
        await writeFileDurableAsync(file, json, durable);
      } catch (err) {
        // Later appends already hold later indices: the store cannot continue consistently.
        this.failure = err;
        throw ioFailed(err);
      }
      this.pending.delete(index);
    });
    this.queue = done.catch(() => undefined);
    return done.then(() => index);
  }

  async get(index: number): Promise<Slot<E>> {
    if (this.closed) throw closedError();
    checkIndex(index, this.names.length);
    return this.read(index);
  }

  /** `text`: the file's text, when it was read already (null or undefined: it is read here). */
  private read(index: number, text?: string | null): Slot<E> {
    const c = this.corrupt.get(index);
    if (c) return c;
    const name = this.names[index]!;
    text ??= this.pending.get(index);
    try {
      text ??= fs.readFileSync(path.join(this.eventsDir, name), 'utf8');
    } catch (err) {
      return this.markCorrupt(index, name, `event file unreadable: ${String(err)}`, false);
    }
    let e: E;
    try {
      e = this.codec.decode(text, index);
    } catch (err) {
      return this.markCorrupt(index, name, `event file cannot be decoded: ${String(err)}`, true);
    }
    if (e.id !== EVENT_FILE.exec(name)![2]) {
      return this.markCorrupt(index, name, `event id "${e.id}" does not match its file name`, true);
    }
    return e;
  }

  private markCorrupt(index: number, name: string, reason: string, copy: boolean): CorruptRecord {
    const c = corruptRecord(index, reason);
    this.corrupt.set(index, c);
    let file: string | null = null;
    let bytes = 0;
    if (copy && !this.readOnly) {
      const qdir = path.join(this.dir, 'quarantine');
      fs.mkdirSync(qdir, { recursive: true });
      file = path.join(qdir, name);
      fs.copyFileSync(path.join(this.eventsDir, name), file);
      bytes = fs.statSync(file).size;
    }
    this.quarantined.push({
      index,
      slots: 1,
      segment: `${EVENTS_DIR}/${name}`,
      offset: 0,
      bytes,
      reason,
      file,
    });
    return c;
  }

  async getById(id: string): Promise<E | undefined> {
    if (this.closed) throw closedError();
    const i = this.ids.get(id);
    if (i === undefined) return undefined;
    const e = this.read(i);
    return this.corrupt.has(i) ? undefined : (e as E);
  }

  async indexOf(id: string): Promise<number> {
    if (this.closed) throw closedError();
    return this.ids.get(id) ?? -1;
  }

  async slice(from?: number, to?: number): Promise<Slot<E>[]> {
    if (this.closed) throw closedError();
    const [a, b] = sliceBounds(this.names.length, from, to);
    const out: Slot<E>[] = [];
    const ahead = this.readingAhead(a);
    for (let i = a; i < b; i++) out.push(this.read(i, ahead && (await ahead.take(i))));
    return out;
  }

  async *iterate(from = 0): AsyncIterableIterator<Slot<E>> {
    const ahead = this.readingAhead(Math.max(0, from));
    for (let i = Math.max(0, from); i < this.names.length; i++) {
      if (this.closed) throw closedError();
      yield this.read(i, ahead && (await ahead.take(i)));
    }
  }

  /** The reader ahead, started at `from` by the first read of a long folder (see `readAheadFrom`). */
  private readingAhead(from: number): FileReadAhead | null {
    if (this.ahead || this.names.length < this.readAheadFrom || this.closed) return this.ahead;
    const names = this.names.map((n, i) => (n === undefined || this.corrupt.has(i) ? null : n));
    try {
      this.ahead = new FileReadAhead(this.eventsDir, names, from);
    } catch {
      this.readAheadFrom = Infinity; // no thread to be had: the files are read here, as always
    }
    return this.ahead;
  }

  subscribe(listener: AppendListener<E>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    await this.queue;
    if (this.failure) throw ioFailed(this.failure);
  }

  /** The SDK's base_state.json, parsed; undefined when absent. */
  readBaseState(): unknown {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.dir, BASE_STATE), 'utf8')) as unknown;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new EventStoreError('CORRUPT', `base_state.json cannot be read: ${String(err)}`, { cause: err });
    }
  }

  writeBaseState(state: unknown): void {
    if (this.readOnly) throw readOnlyError(this.lockHeldBy);
    writeFileDurable(path.join(this.dir, BASE_STATE), JSON.stringify(state, null, 2));
  }

  async writeSnapshot(index: number, json: string): Promise<void> {
    if (this.closed) throw closedError();
    if (this.readOnly) throw readOnlyError(this.lockHeldBy);
    checkIndex(index, this.names.length);
    const e = this.read(index);
    if (this.corrupt.has(index))
      throw new EventStoreError('CORRUPT', `no snapshot at ${index}: that event is unreadable`);
    await this.flush();
    this.snapshots.write(index, e.id, json);
  }

  async latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined> {
    if (this.closed) throw closedError();
    const limit = Math.min(atOrBefore ?? this.names.length - 1, this.names.length - 1);
    if (limit < 0) return undefined;
    return this.snapshots.latest(limit, (i, id) => !this.corrupt.has(i) && this.read(i).id === id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.queue;
    } finally {
      this.closed = true;
      this.ahead?.stop();
      this.lock?.release();
      this.listeners.clear();
    }
  }
}

function ioFailed(err: unknown): EventStoreError {
  if (err instanceof EventStoreError) return err;
  return new EventStoreError('IO_FAILED', `writing an event file failed: ${String(err)}`, { cause: err });
}
