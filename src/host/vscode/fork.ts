// "Continue from here" in the editor: the fork is a new conversation folder next to the source.
import { conversationEventCodec, type StoredConversationEvent } from '../../core/agent/event-codec';
import { SegmentEventStore } from '../../core/log/segment-store';
import type { ConversationSession } from './conversation-session';

export async function forkConversation(
  source: ConversationSession,
  eventId: string,
  dir: string,
): Promise<void> {
  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, { codec: conversationEventCodec });
  try {
    await source.conversation.fork(eventId, store);
  } finally {
    await store.close();
  }
}
