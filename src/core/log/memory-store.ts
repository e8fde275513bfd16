// In-memory EventStore: the reference model for tests and for conversations nobody persists.
// Records are kept encoded, so a caller mutating an event object after append cannot rewrite
// history, and a codec that cannot round-trip fails here exactly as it would on disk.
import {
  type AppendListener,
  type AppendOptions,
  type EventCodec,
  type EventStore,
  type Slot,
  type Snapshot,
  type StoredEvent,
  checkIndex,
  checkShape,
  closedError,
  defaultListenerError,
  duplicateError,
  encodeChecked,
  jsonCodec,
  notifyAll,
  sliceBounds,
  unknownParentError,
} from './event-store';

export interface MemoryStoreOptions<E extends StoredEvent> {
  codec?: EventCodec<E>;
  onListenerError?: (err: unknown) => void;
}

export class MemoryEventStore<E extends StoredEvent = StoredEvent> implements EventStore<E> {
  readonly readOnly = false;
  readonly lockHeldBy = null;
  private readonly lines: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly listeners = new Set<AppendListener<E>>();
  private readonly snapshots: Snapshot[] = [];
  private readonly codec: EventCodec<E>;
  private readonly onListenerError: (err: unknown) => void;
  private closed = false;

  constructor(opts: MemoryStoreOptions<E> = {}) {
    this.codec = opts.codec ?? jsonCodec<E>();
    this.onListenerError = opts.onListenerError ?? defaultListenerError;
  }

  get length(): number {
    return this.lines.length;
  }

  append(e: E, _opts?: AppendOptions): Promise<number> {
    try {
      return Promise.resolve(this.appendSync(e));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private appendSync(e: E): number {
    if (this.closed) throw closedError();
    checkShape(e);
    const at = this.ids.get(e.id);
    if (at !== undefined) throw duplicateError(e.id, at);
    const parent = e.parent_id;
    if (typeof parent === 'string' && !this.ids.has(parent)) throw unknownParentError(e.id, parent);
    const line = encodeChecked(this.codec, e);
    const index = this.lines.length;
    this.lines.push(line);
    this.ids.set(e.id, index);
    notifyAll(this.listeners, e, index, this.onListenerError);
    return index;
  }

  async get(index: number): Promise<Slot<E>> {
    checkIndex(index, this.lines.length);
    return this.codec.decode(this.lines[index]!, index);
  }

  async getById(id: string): Promise<E | undefined> {
    const i = this.ids.get(id);
    return i === undefined ? undefined : this.codec.decode(this.lines[i]!, i);
  }

  async indexOf(id: string): Promise<number> {
    return this.ids.get(id) ?? -1;
  }

  async slice(from?: number, to?: number): Promise<Slot<E>[]> {
    const [a, b] = sliceBounds(this.lines.length, from, to);
    const out: E[] = [];
    for (let i = a; i < b; i++) out.push(this.codec.decode(this.lines[i]!, i));
    return out;
  }

  async *iterate(from = 0): AsyncIterableIterator<Slot<E>> {
    for (let i = Math.max(0, from); i < this.lines.length; i++) yield this.codec.decode(this.lines[i]!, i);
  }

  subscribe(listener: AppendListener<E>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {}

  async writeSnapshot(index: number, json: string): Promise<void> {
    if (this.closed) throw closedError();
    checkIndex(index, this.lines.length);
    const eventId = this.codec.decode(this.lines[index]!, index).id;
    this.snapshots.push({ index, eventId, json });
  }

  async latestSnapshot(atOrBefore?: number): Promise<Snapshot | undefined> {
    const limit = Math.min(atOrBefore ?? Infinity, this.lines.length - 1);
    let best: Snapshot | undefined;
    for (const s of this.snapshots) if (s.index <= limit && (!best || s.index >= best.index)) best = s;
    return best;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
  }
}
