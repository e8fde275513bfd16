// The EventStore contract shared by every backend (memory, segment log, OpenHands directory).
// Stores are generic over the record type so this folder never depends on the event schemas:
// it only needs `id`, `kind` and an optional `parent_id`, plus a codec to turn records into text.

import { stringifyJson } from '../json/stringify';
import type { LostEvents } from './lost-events';

export interface StoredEvent {
  id: string;
  kind: string;
  parent_id?: string | null;
  [k: string]: unknown;
}

/** Turns a record into one line of text and back. `encode` must not emit a newline. */
export interface EventCodec<E extends StoredEvent> {
  encode(e: E): string;
  decode(line: string, index: number): E;
  /** true if encode() can never emit a newline (JSON without indentation cannot) */
  readonly oneLine?: boolean;
}

/** JSON codec; `decode` checks the two fields the store relies on. */
export function jsonCodec<E extends StoredEvent = StoredEvent>(): EventCodec<E> {
  return {
    oneLine: true,
    encode: (e) => stringifyJson(e)!,
    decode: (line, index) => {
      const v: unknown = JSON.parse(line);
      if (!isStoredEvent(v)) throw new Error(`record ${index} has no string "id" and "kind"`);
      return v as E;
    },
  };
}

export function isStoredEvent(v: unknown): v is StoredEvent {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.id === 'string' && o.id.length > 0 && typeof o.kind === 'string' && o.kind.length > 0;
}

/**
 * What a store serves in the slot of a record it could not read back (bad checksum, unparsable,
 * missing). Slots keep their index so later records keep theirs; the caller decides how to show it.
 */
export interface CorruptRecord extends StoredEvent {
  kind: 'CorruptRecord';
  id: string;
  parent_id: null;
  index: number;
  reason: string;
}

export type Slot<E extends StoredEvent> = E | CorruptRecord;

export function corruptRecord(index: number, reason: string): CorruptRecord {
  return { kind: 'CorruptRecord', id: `corrupt-${index}`, parent_id: null, index, reason };
}

export function isCorruptRecord(e: StoredEvent): e is CorruptRecord {
  return e.kind === 'CorruptRecord' && typeof (e as { index?: unknown }).index === 'number';
}

export type EventStoreErrorCode =
  | 'DUPLICATE_ID'
  | 'UNKNOWN_PARENT'
  | 'INVALID_EVENT'
  | 'READ_ONLY'
  | 'CLOSED'
  | 'IO_FAILED'
  | 'OUT_OF_RANGE'
  | 'CORRUPT'
  | 'LOCKED'
  /** events the log held are gone; a writable open is refused until the loss is accepted */
  | 'LOST_DATA'
  /** a record a signer would chain (one written before signing) cannot be read, so it cannot be signed */
  | 'UNSIGNABLE';

export class EventStoreError extends Error {
  readonly code: EventStoreErrorCode;
  constructor(code: EventStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreError';
    this.code = code;
  }
}

export interface AppendOptions {
  /**
   * true: resolve only after the record (and everything before it) is fdatasync'ed. Use it for
   * user messages and for every event that precedes a side effect.
   * false (default): resolve once the record is written to the file in order (it survives a crash
   * of this process); it reaches the disk with the next group commit, a few ms later.
   */
  durable?: boolean;
}

export type AppendListener<E extends StoredEvent> = (event: E, index: number) => void;

/** An opaque state snapshot taken after applying events 0..index (inclusive). */
export interface Snapshot {
  index: number;
  /** id of the event at `index` when the snapshot was written; a mismatch invalidates it */
  eventId: string;
  json: string;
}

export interface QuarantineEntry {
  /** first slot index served as a CorruptRecord, or -1 if no slot was lost */
  index: number;
  /** number of slots served as CorruptRecord for these bytes */
  slots: number;
  segment: string;
  offset: number;
  bytes: number;
  reason: string;
  /** where the bytes were copied; null in a read-only store */
  file: string | null;
}

export interface EventStore<E extends StoredEvent = StoredEvent> {
  /** true when another process holds the writer lock; appends then reject with READ_ONLY */
  readonly readOnly: boolean;
  /** who holds the lock when readOnly, for messages */
  readonly lockHeldBy: string | null;
  /** bytes of a torn last record cut off when the store was opened (absent: the backend has none) */
  readonly truncatedOnOpen?: number;
  /**
   * Events the log once held that were found gone when it was opened (lost-events.ts); a writable
   * store only has them when the loss was accepted at open. Absent: the backend cannot tell.
   */
  readonly lostOnOpen?: LostEvents | null;
  readonly length: number;
  /** Appends in call order; resolves to the new index (see AppendOptions for when). */
  append(e: E, opts?: AppendOptions): Promise<number>;
  get(index: number): Promise<Slot<E>>;
  getById(id: string): Promise<E | undefined>;
  /** -1 when absent */
  indexOf(id: string): Promise<number>;
  /** Array.prototype.slice semantics, negative indices count from the end */
  slice(from?: number, to?: number): Promise<Slot<E>[]>;
  /**
   * The slots at these positions (those inside the log), in increasing position order, each once;
   * records passed over between them are not decoded. Absent: the backend reads them with slice.
   */
  readAt?(positions: readonly number[]): Promise<Slot<E>[]>;
  /** Reads lazily from `from` until it catches up with `length` (re-read at each step). */
  iterate(from?: number): AsyncIterableIterator<Slot<E>>;
  /** Called synchronously, in index order, once per record as soon as it is written. */
  subscribe(listener: AppendListener<E>): () => void;
  /** Resolves when everything appended so far is on disk. */
  flush(): Promise<void>;
  writeSnapshot(index: number, json: string): Promise<void>;
  /** Newest valid snapshot with index <= atOrBefore (default: length - 1). */
  latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined>;
  close(): Promise<void>;
}

/** Index normalisation for slice(): Array.prototype.slice rules. */
export function sliceBounds(length: number, from?: number, to?: number): [number, number] {
  const norm = (v: number | undefined, dflt: number): number => {
    if (v === undefined) return dflt;
    const t = Math.trunc(v);
    return t < 0 ? Math.max(0, length + t) : Math.min(t, length);
  };
  const a = norm(from, 0);
  const b = norm(to, length);
  return [a, Math.max(a, b)];
}

export function checkIndex(index: number, length: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= length) {
    throw new EventStoreError('OUT_OF_RANGE', `index ${index} is outside the log (length ${length})`);
  }
}

/** Shape checks every backend applies before looking at ids; what passes is what wellShaped accepts. */
export function checkShape(e: unknown): asserts e is StoredEvent {
  const o = typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : undefined;
  if (o && wellShaped(o, o.id, o.parent_id)) return;
  if (!isStoredEvent(e)) {
    throw new EventStoreError('INVALID_EVENT', 'an event needs a non-empty string "id" and "kind"');
  }
  throw new EventStoreError('INVALID_EVENT', `event ${e.id}: parent_id must be a string or null`);
}

/**
 * What checkShape accepts, judged from the id and parent the caller has already read (appends read
 * each field once); false sends the caller to checkShape, which says what is wrong.
 */
export function wellShaped(e: unknown, id: unknown, parent: unknown): boolean {
  if (typeof id !== 'string' || id.length === 0 || Array.isArray(e)) return false;
  const kind = (e as { kind?: unknown }).kind;
  return (
    typeof kind === 'string' &&
    kind.length > 0 &&
    (parent === undefined || parent === null || typeof parent === 'string')
  );
}

export function duplicateError(id: string, at: number): EventStoreError {
  return new EventStoreError('DUPLICATE_ID', `event id "${id}" is already in the log (index ${at})`);
}

export function unknownParentError(id: string, parent: string): EventStoreError {
  return new EventStoreError(
    'UNKNOWN_PARENT',
    `event "${id}" names parent_id "${parent}", which is not in the log`,
  );
}

export function readOnlyError(heldBy: string | null): EventStoreError {
  const why = heldBy ? `the writer lock is held: ${heldBy}` : 'it was opened read-only';
  return new EventStoreError('READ_ONLY', `this store is read-only (${why}); appends are refused`);
}

export function closedError(): EventStoreError {
  return new EventStoreError('CLOSED', 'the event store is closed');
}

/** Encodes with the codec and refuses output that would break the one-record-per-line format. */
export function encodeChecked<E extends StoredEvent>(codec: EventCodec<E>, e: E): string {
  let text: string;
  try {
    text = codec.encode(e);
  } catch (err) {
    throw new EventStoreError('INVALID_EVENT', `event ${e.id} could not be encoded: ${String(err)}`, {
      cause: err,
    });
  }
  if (typeof text !== 'string' || (!codec.oneLine && text.includes('\n'))) {
    throw new EventStoreError('INVALID_EVENT', `event ${e.id}: the codec must return one line of text`);
  }
  return text;
}

/** Calls listeners without letting one listener's exception break the append or the others. */
export function notifyAll<E extends StoredEvent>(
  listeners: ReadonlySet<AppendListener<E>>,
  e: E,
  index: number,
  onError: (err: unknown) => void,
): void {
  for (const l of listeners) {
    try {
      l(e, index);
    } catch (err) {
      onError(err);
    }
  }
}

export function defaultListenerError(err: unknown): void {
  // A listener bug must not undo an append that is already on disk; surface it instead.
  console.error('[logbook/log] append listener threw:', err);
}
