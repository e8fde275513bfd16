// "Continue from here" in the editor: the fork is a new conversation folder next to the source,
// signed by this window's key from its first event.
import { conversationEventCodec, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { type SigningIdentity, openSignedStore } from '../../../core/signing';
import type { ConversationSession } from '../conversations/conversation-session';

export async function forkConversation(
  source: ConversationSession,
  eventId: string,
  dir: string,
  identity: SigningIdentity,
  chain: { conversationId: string; headFile: string },
): Promise<void> {
  const store = await openSignedStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    identity,
    ...chain,
  });
  try {
    await source.conversation.fork(eventId, store);
  } finally {
    await store.close();
  }
}
