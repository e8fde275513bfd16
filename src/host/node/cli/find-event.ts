// The event a command's ID argument names, in an open log: an index (`#N`, or a bare number the
// log has) or a whole event id is found without reading the log; a prefix or a checkpoint id reads
// the events once (event-ref.ts says how each is read).
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { Event } from '../../../core/events';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import { readEvents } from './conversation-dir';
import { type EventRefFound, indexRef, namedPoint, outsideLog, resolveRef } from './event-ref';

type Store = EventStore<StoredConversationEvent>;

/** The readable events and their indices, read at most once for all of a command's arguments. */
export type EventsOnce = () => Promise<{ events: Event[]; indices: number[] }>;

export function eventsOnce(store: Store): EventsOnce {
  let read: Promise<{ events: Event[]; indices: number[] }> | undefined;
  return () => (read ??= readEvents(store));
}

export async function findEvent(
  store: Store,
  ref: string,
  dirArg: string,
  all: EventsOnce = eventsOnce(store),
): Promise<EventRefFound> {
  const length = store.length;
  ref = namedPoint(ref, length);
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
  const { events, indices } = await all();
  return resolveRef(events, ref, dirArg, { indices, length });
}
