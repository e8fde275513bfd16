// What `show` reads from a conversation's log: the state from the newest usable snapshot plus the
// events after it (stateFromStore; for `show --at`, the snapshot at or before that event), the events of the pending actions by id, and the unreadable
// records the store knows of. With a snapshot near the end this is the same for 100 events as for
// 100,000; without one (an OpenHands layout, an old log) it is a full replay, as it always was.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { ActionEvent } from '../../../core/events';
import { type EventStore, isCorruptRecord, type QuarantineEntry, type Slot } from '../../../core/log';
import { type ConversationState, type StateSource, stateFromStore } from '../../../core/state';

type Store = EventStore<StoredConversationEvent>;

export interface ReadState {
  state: ConversationState;
  /** The ActionEvents of the pending actions (an unreadable one is missing). */
  actions: Map<string, ActionEvent>;
  /**
   * Unreadable records: those the store reported (found while validating the tail at open, or by
   * any read since) and those met while replaying. One before the snapshot that nothing read is
   * found by the open that reads it, as it always is for the segment log (FORMAT.md).
   */
  corrupt: number;
  /** Index of the snapshot the state started from; null for a replay from the first event. */
  fromSnapshot: number | null;
  replayed: number;
}

/** The state after the last event, or after event `atIndex` (time travel, `show --at`). */
export async function readState(store: Store, id: string, atIndex?: number): Promise<ReadState> {
  const seen = new Set<number>();
  const note = <T extends Slot<StoredConversationEvent>>(slot: T): T => {
    if (isCorruptRecord(slot)) seen.add(slot.index);
    return slot;
  };
  // The store as stateFromStore reads it, noting every unreadable slot it is served.
  const source: StateSource = {
    get length() {
      return store.length;
    },
    get: async (i) => note(await store.get(i)),
    slice: async (from, to) => (await store.slice(from, to)).map(note),
    indexOf: (eventId) => store.indexOf(eventId),
    latestSnapshot: (at) => store.latestSnapshot(at),
  };
  const { state, fromSnapshot, replayed } = await stateFromStore(
    source,
    atIndex === undefined ? { id } : { id, atIndex },
  );

  const actions = new Map<string, ActionEvent>();
  for (const p of state.pendingActions) {
    const e = await store.getById(p.actionId).catch(() => undefined);
    if (e && !isCorruptRecord(e) && e.kind === 'ActionEvent') actions.set(p.actionId, e as ActionEvent);
  }
  for (const q of quarantined(store)) {
    for (let k = 0; k < q.slots && q.index >= 0; k++) seen.add(q.index + k);
  }
  return { state, actions, corrupt: seen.size, fromSnapshot, replayed };
}

/** The unreadable ranges a backend reports, open-time ones included (not part of EventStore). */
function quarantined(store: Store): readonly QuarantineEntry[] {
  const q = (store as { quarantined?: unknown }).quarantined;
  return Array.isArray(q) ? (q as QuarantineEntry[]) : [];
}
