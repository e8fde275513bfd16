// `logbook show --at ID`: the conversation's state right after one event, from the snapshot at or
// before it plus the events between (read-state.ts), with the pending actions of that moment. An
// index (`#N`) or a whole event id is found without reading the log; a prefix or a checkpoint id
// reads the events' ids once.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { ActionEvent } from '../../../core/events';
import type { ConversationState } from '../../../core/state';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import { type EventRefFound } from './event-ref';
import { findEvent } from './find-event';
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
