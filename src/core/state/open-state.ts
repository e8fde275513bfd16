/**
 * Opening a conversation's state from its store in O(snapshot interval) instead of O(log):
 * the newest usable persisted snapshot at or before the wanted index, plus a replay of the events
 * after it.
 *
 * A snapshot is only a cache of `deriveState` (see snapshot.ts), so one is used only when it
 * decodes with this version's schema, the store's event at `snapshot.index` is readable and has
 * `snapshot.eventId`, and the decoded state's head is that event. Otherwise the previous snapshot
 * is tried, and finally a replay from event 0. The result therefore equals
 * `deriveState(readable events 0..atIndex, { id })` whatever the snapshots hold:
 *
 * - CorruptRecord slots (records the store could not read back) are skipped, as Conversation.open
 *   skips them.
 * - Replay from a snapshot is linear. If a replayed event names as its parent an earlier event of
 *   the log other than the previous one (a fork; stored logs are linear, forks are written as new
 *   logs, so this should not happen), the whole prefix is derived with `deriveState` instead.
 * - The state's `id` is a label given by the caller (`initialState(id)`); a snapshot's is replaced.
 */
import type { Event } from '../events';
import { type EventStore, isCorruptRecord, type StoredEvent } from '../log/event-store';
import { type ConversationState, initialState } from './conversation-state';
import { deriveState } from './derive';
import { reduce } from './reducer';
import { decodeSnapshotEnvelope } from './snapshot';

/**
 * What `stateFromStore` reads from an EventStore. Its records must decode to events
 * (conversationEventCodec), with unreadable ones served as CorruptRecord slots.
 */
export type StateSource = Pick<
  EventStore<StoredEvent>,
  'length' | 'get' | 'slice' | 'indexOf' | 'latestSnapshot'
>;

export interface StateFromStoreOptions {
  /** Conversation id put in the state (as `deriveState`'s `id`); default null. */
  id?: string | null;
  /** Index of the last event applied; default the last event of the store. */
  atIndex?: number;
}

export interface StoreState {
  state: ConversationState;
  /** Index of the persisted snapshot the state was built from; null for a replay from event 0. */
  fromSnapshot: number | null;
  /** Number of events reduced on top of the snapshot (or from event 0); corrupt slots not counted. */
  replayed: number;
}

/** Events read per `slice` call while replaying. */
const CHUNK = 256;

/**
 * The state after event `atIndex` (default: the last event) of the store: the newest usable
 * snapshot at or before it plus the events after it. Throws a RangeError when `atIndex` is not an
 * index of the store; an empty store gives `initialState(id)`.
 */
export async function stateFromStore(
  store: StateSource,
  opts: StateFromStoreOptions = {},
): Promise<StoreState> {
  const id = opts.id ?? null;
  const length = store.length;
  const at = opts.atIndex ?? length - 1;
  if (opts.atIndex !== undefined && (!Number.isInteger(at) || at < 0 || at >= length)) {
    throw new RangeError(`event index ${at} is outside the log (length ${length})`);
  }
  if (at < 0) return { state: initialState(id), fromSnapshot: null, replayed: 0 };

  const snap = await usableSnapshot(store, at);
  const base =
    snap === undefined ? initialState(id) : snap.state.id === id ? snap.state : { ...snap.state, id };
  const from = snap === undefined ? 0 : snap.index + 1;
  const linear = await replayLinear(store, base, from, at);
  if (linear) return { state: linear.state, fromSnapshot: snap?.index ?? null, replayed: linear.replayed };

  // A fork inside the replayed range: derive the whole prefix, branch rules included.
  const events: Event[] = [];
  await forEachEvent(store, 0, at, (e) => void events.push(e));
  return { state: deriveState(events, { id }), fromSnapshot: null, replayed: events.length };
}

export interface UsableSnapshot {
  index: number;
  state: ConversationState;
  /** The snapshot's opaque `resume` value (undefined when it has none). */
  resume: unknown;
}

/** The newest snapshot at or before `at` that can be trusted, walking back past unusable ones. */
export async function usableSnapshot(store: StateSource, at: number): Promise<UsableSnapshot | undefined> {
  let limit = at;
  while (limit >= 0) {
    let found;
    try {
      found = await store.latestSnapshot(limit);
    } catch {
      return undefined; // unreadable snapshot directory: replay
    }
    if (!found || !Number.isInteger(found.index) || found.index < 0 || found.index > limit) return undefined;
    const decoded = await checkSnapshot(store, found);
    if (decoded) return { index: found.index, ...decoded };
    limit = found.index - 1;
  }
  return undefined;
}

async function checkSnapshot(
  store: StateSource,
  snap: { index: number; eventId: string; json: string },
): Promise<{ state: ConversationState; resume: unknown } | null> {
  const decoded = decodeSnapshotEnvelope(snap.json);
  const state = decoded?.state;
  if (!state || state.head !== snap.eventId || state.eventCount > snap.index + 1) return null;
  try {
    const slot = await store.get(snap.index);
    return !isCorruptRecord(slot) && slot.id === snap.eventId ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * Reduces the readable events `from..at` onto `state`; undefined when one of them forks, i.e.
 * names as parent an earlier event of the log that is not the current head.
 */
async function replayLinear(
  store: StateSource,
  state: ConversationState,
  from: number,
  at: number,
): Promise<{ state: ConversationState; replayed: number } | undefined> {
  let s = state;
  let replayed = 0;
  const apply = (e: Event): void => {
    s = reduce(s, e);
    replayed++;
  };
  const forked = await forEachEvent(store, from, at, (e, index) => {
    const p = e.parent_id;
    if (typeof p === 'string' && p !== '' && p !== s.head) {
      // Not the previous event: a fork if it names an earlier event; else (unknown id, or a
      // record lost to corruption) the parent is the previous event, as in branch.ts.
      return store.indexOf(p).then((j) => (j >= 0 && j < index ? 'stop' : apply(e)));
    }
    apply(e);
  });
  return forked ? undefined : { state: s, replayed };
}

/**
 * Calls `visit` for each readable event of `from..at` in order; true when `visit` stopped it.
 * `visit` may be sync; it is awaited only when it returns a promise.
 */
async function forEachEvent(
  store: StateSource,
  from: number,
  at: number,
  visit: (e: Event, index: number) => void | 'stop' | Promise<void | 'stop'>,
): Promise<boolean> {
  for (let i = from; i <= at; i += CHUNK) {
    const slots = await store.slice(i, Math.min(i + CHUNK, at + 1));
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      if (isCorruptRecord(slot)) continue;
      let r = visit(slot as unknown as Event, i + k);
      if (r instanceof Promise) r = await r;
      if (r === 'stop') return true;
    }
  }
  return false;
}
