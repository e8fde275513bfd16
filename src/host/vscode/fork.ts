// "Continue from here": a new conversation whose log is the source's branch up to the chosen
// event, copied verbatim (ids and parent links kept), plus a record of where it came from.
import { createEvent, type Event } from '../../core/events';
import { conversationEventCodec, type StoredConversationEvent } from '../../core/agent/event-codec';
import { SegmentEventStore } from '../../core/log/segment-store';
import { branchOf, EXECUTION_STATUS_KEY } from '../../core/state';
import type { ConversationSession } from './conversation-session';

export async function forkConversation(
  source: ConversationSession,
  eventId: string,
  dir: string,
): Promise<void> {
  const events = await source.conversation.events();
  if (!events.some((e) => e.id === eventId))
    throw new Error(`No event ${eventId} in conversation ${source.id}.`);
  const branch = branchOf(events, eventId);
  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec });
  try {
    for (const e of branch) await store.append(e as StoredConversationEvent);
    const last = branch.at(-1)!;
    const forked = createEvent('ConversationStateUpdateEvent', {
      key: 'forked_from',
      value: { conversation_id: source.id, event_id: eventId },
      parent_id: last.id,
    });
    await store.append(forked as Event as StoredConversationEvent);
    // Whatever the source was doing at that point, the fork starts idle, waiting for the user.
    const idle = createEvent('ConversationStateUpdateEvent', {
      key: EXECUTION_STATUS_KEY,
      value: 'idle',
      parent_id: forked.id,
    });
    await store.append(idle as Event as StoredConversationEvent, { durable: true });
  } finally {
    await store.close();
  }
}
