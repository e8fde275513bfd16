/**
 * Time travel: the state after any event of the log, from snapshots plus replay.
 *
 * The state of event i (the reduction of its branch) is kept in memory for every event whose depth
 * + 1 is a multiple of `interval` (for a linear log: after N, 2N, ... events). Every branch has such
 * an ancestor at most `interval` steps up, so `stateAt(i)` costs at most `interval` reduces, forks
 * included. Snapshots taken while appending are also handed to a SnapshotSink when given (an
 * EventStore fits: `writeSnapshot`/`latestSnapshot`), so reopening a long log starts from the newest
 * persisted one instead of replaying everything.
 */
import type { Event } from '../events';
import { LogTree } from './branch';
import { type ConversationState, initialState } from './conversation-state';
import { reduce } from './reducer';
import { decodeSnapshot, encodeSnapshot } from './snapshot';

/** The snapshot half of the EventStore contract (src/core/log/event-store.ts). */
export interface SnapshotSink {
  writeSnapshot(index: number, json: string): Promise<void>;
  /** Newest snapshot with index <= atOrBefore; `eventId` is the id of the event at `index`. */
  latestSnapshot(atOrBefore?: number): Promise<{ index: number; eventId: string; json: string } | undefined>;
}

export const DEFAULT_SNAPSHOT_INTERVAL = 1000;

export interface TimelineOptions {
  id?: string | null;
  /** Events between snapshots along a branch (default 1000). */
  interval?: number;
  sink?: SnapshotSink;
}

/** What `StateTimeline.load` did with the persisted snapshot. */
export type SnapshotLoad =
  | { used: true; index: number }
  | { used: false; reason: 'none' | 'unreadable' | 'stale' | 'other-conversation'; index?: number };

export class StateTimeline {
  readonly interval: number;
  private readonly id: string | null;
  private readonly sink: SnapshotSink | undefined;
  private readonly tree = new LogTree();
  private readonly events: Event[] = [];
  private readonly snapshots = new Map<number, ConversationState>();
  private current: ConversationState;
  /** Log index `current` is the state of (-1: the empty log). */
  private currentIndex = -1;
  private writes: Promise<void> = Promise.resolve();
  private readonly failures: unknown[] = [];
  /** Number of `reduce` calls the last `stateAt` needed (to check the bound). */
  lastReplayLength = 0;

  constructor(opts: TimelineOptions = {}) {
    const interval = opts.interval ?? DEFAULT_SNAPSHOT_INTERVAL;
    if (!Number.isInteger(interval) || interval < 1)
      throw new RangeError(`bad snapshot interval ${interval}`);
    this.interval = interval;
    this.id = opts.id ?? null;
    this.sink = opts.sink;
    this.current = initialState(this.id);
  }

  /**
   * A timeline over an existing log, seeded with the sink's newest valid snapshot (one whose event
   * id matches the log and that decodes). Positions before it are replayed, and snapshotted, the
   * first time they are asked for.
   */
  static async load(
    events: readonly Event[],
    opts: TimelineOptions = {},
  ): Promise<{ timeline: StateTimeline; snapshot: SnapshotLoad }> {
    const timeline = new StateTimeline(opts);
    for (const e of events) {
      timeline.tree.add(e);
      timeline.events.push(e);
    }
    let snapshot: SnapshotLoad = { used: false, reason: 'none' };
    const found = events.length > 0 ? await opts.sink?.latestSnapshot(events.length - 1) : undefined;
    if (found) {
      const state = decodeSnapshot(found.json);
      const at = events[found.index];
      if (!state) snapshot = { used: false, reason: 'unreadable', index: found.index };
      else if (!at || at.id !== found.eventId || state.head !== at.id)
        snapshot = { used: false, reason: 'stale', index: found.index };
      else if (state.id !== timeline.id)
        snapshot = { used: false, reason: 'other-conversation', index: found.index };
      else {
        timeline.snapshots.set(found.index, state);
        snapshot = { used: true, index: found.index };
      }
    }
    if (events.length > 0) {
      timeline.current = timeline.stateAt(events.length - 1);
      timeline.currentIndex = events.length - 1;
    }
    return { timeline, snapshot };
  }

  get length(): number {
    return this.events.length;
  }

  /** State after the last event (its branch). */
  get state(): ConversationState {
    return this.current;
  }

  append(event: Event): ConversationState {
    const i = this.tree.add(event);
    this.events.push(event);
    const parent = this.tree.parentOf(i);
    const base =
      parent === this.currentIndex ? this.current : parent < 0 ? initialState(this.id) : this.stateAt(parent);
    this.current = reduce(base, event);
    this.currentIndex = i;
    if (this.isSnapshotPoint(i)) {
      this.snapshots.set(i, this.current);
      this.persist(i, this.current);
    }
    return this.current;
  }

  /** State of the branch ending at log index `i` (equals `deriveState(events.slice(0, i + 1))`). */
  stateAt(i: number): ConversationState {
    this.tree.parentOf(i); // RangeError outside the log
    const path: number[] = [];
    let j = i;
    while (j >= 0 && j !== this.currentIndex && !this.snapshots.has(j)) {
      path.push(j);
      j = this.tree.parentOf(j);
    }
    let state =
      j < 0 ? initialState(this.id) : j === this.currentIndex ? this.current : this.snapshots.get(j)!;
    for (let k = path.length - 1; k >= 0; k--) {
      const at = path[k]!;
      state = reduce(state, this.events[at]!);
      if (this.isSnapshotPoint(at)) this.snapshots.set(at, state);
    }
    this.lastReplayLength = path.length;
    return state;
  }

  /** Indices that hold an in-memory snapshot, ascending. */
  snapshotIndices(): number[] {
    return [...this.snapshots.keys()].sort((a, b) => a - b);
  }

  /** Waits for the snapshot writes so far; resolves to the errors they met (and forgets them). */
  async flush(): Promise<unknown[]> {
    await this.writes;
    return this.failures.splice(0);
  }

  private isSnapshotPoint(i: number): boolean {
    return (this.tree.depthOf(i) + 1) % this.interval === 0;
  }

  private persist(index: number, state: ConversationState): void {
    const sink = this.sink;
    if (!sink) return;
    const json = encodeSnapshot(state);
    // In order, one at a time; a failed write is reported by flush(), never thrown into append().
    this.writes = this.writes.then(() =>
      sink.writeSnapshot(index, json).catch((err: unknown) => void this.failures.push(err)),
    );
  }
}
