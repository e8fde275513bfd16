// `logbook show --at ID`: the conversation's state right after one event, from the snapshot at or
// before it plus the events between (read-state.ts), with the pending actions of that moment. An
// index (`#N`) or a whole event id is found without reading the log; a prefix or a checkpoint id
// reads the events' ids once.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { ActionEvent } from '../../../core/events';
import type { ConversationState } from '../../../core/state';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import { readEvents } from './conversation-dir';
import { type EventRefFound, indexRef, outsideLog, resolveRef } from './event-ref';
import { readState } from './read-state';

export interface StateAtEvent {
  state: ConversationState;
  actions: Map<string, ActionEvent>;
  /** The event the state is taken after: its index in the log, id and time. */
  at: { index: number; id: string; timestamp: string };
  /** How the argument was read (an index, an id, a checkpoint). */
  ref: EventRefFound;
  corrupt: number;
}

export async function readStateAt(
  store: EventStore<StoredConversationEvent>,
  id: string,
  ref: string,
  dirArg: string,
): Promise<StateAtEvent> {
  const found = await findEvent(store, ref, dirArg);
  const event = await store.get(found.index);
  if (isCorruptRecord(event)) throw new Error(`Event #${found.index} of this conversation is unreadable.`);
  const read = await readState(store, id, found.index);
  return {
    state: read.state,
    actions: read.actions,
    at: { index: found.index, id: event.id, timestamp: (event as { timestamp: string }).timestamp },
    ref: found,
    corrupt: read.corrupt,
  };
}

async function findEvent(
  store: EventStore<StoredConversationEvent>,
  ref: string,
  dirArg: string,
): Promise<EventRefFound> {
  const length = store.length;
  const asIndex = indexRef(ref);
  if (asIndex && (asIndex.marked || asIndex.index < length)) {
    if (asIndex.index >= length) throw outsideLog(asIndex.index, length);
    const slot = await store.get(asIndex.index);
    if (isCorruptRecord(slot)) throw new Error(`Event #${asIndex.index} of this conversation is unreadable.`);
    return { index: asIndex.index, eventId: slot.id, readAs: 'index' };
  }
  const whole = ref.trim();
  const at = await store.indexOf(whole).catch(() => -1);
  if (at >= 0) return { index: at, eventId: whole, readAs: 'id' };
  const { events, indices } = await readEvents(store);
  return resolveRef(events, ref, dirArg, { indices, length });
}
