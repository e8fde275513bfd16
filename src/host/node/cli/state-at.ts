// `logbook show --at ID`: the conversation's state right after one event, from the core's timeline
// (the state of that event's branch), with the pending actions of that moment.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { ActionEvent } from '../../../core/events';
import type { EventStore } from '../../../core/log';
import { type ConversationState, StateTimeline } from '../../../core/state';
import { readEvents } from './conversation-dir';
import { eventIdFor } from './event-ref';

export interface StateAtEvent {
  state: ConversationState;
  actions: Map<string, ActionEvent>;
  /** The event the state is taken after: its index among the readable events, id and time. */
  at: { index: number; id: string; timestamp: string };
  corrupt: number;
}

export async function readStateAt(
  store: EventStore<StoredConversationEvent>,
  id: string,
  ref: string,
  dirArg: string,
): Promise<StateAtEvent> {
  const { events, corrupt } = await readEvents(store);
  const eventId = eventIdFor(events, ref, dirArg);
  const index = events.findIndex((e) => e.id === eventId);
  const { timeline } = await StateTimeline.load(events, { id });
  const state = timeline.stateAt(index);
  const actions = new Map<string, ActionEvent>();
  const pending = new Set(state.pendingActions.map((p) => p.actionId));
  for (const e of events) if (e.kind === 'ActionEvent' && pending.has(e.id)) actions.set(e.id, e);
  const event = events[index]!;
  return { state, actions, at: { index, id: event.id, timestamp: event.timestamp }, corrupt };
}
