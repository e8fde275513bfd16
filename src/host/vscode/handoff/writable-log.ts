// A conversation's log opened for writing in a window: it waits a little for a window that is
// closing to let go of it, and opens read-only when another window really has it open.
import { type ConversationStore, openConversationStore } from '../../node/session/conversation-store';
import type { SessionDeps } from '../conversations/session-deps';

/** How long to wait for a lock held by a window that is closing (a reload replaces the extension host). */
const LOCK_WAIT_MS = 10_000;

/**
 * Opens the log for writing, waiting a little while another process holds its lock: after a window
 * reload the previous extension host may still be shutting down. Still locked after that, it is
 * opened read-only (another window really has it open).
 */
export async function openWritable(
  deps: Pick<SessionDeps, 'dir' | 'signing' | 'acceptLostEvents' | 'lockHolder'>,
  chain: { conversationId: string; headFile: string },
  unsigned: (why: string) => void,
): Promise<ConversationStore> {
  const { dir } = deps;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const store = await openConversationStore(dir, {
      ...chain,
      signing: deps.signing,
      acceptLostEvents: deps.acceptLostEvents === true,
      lockHolder: deps.lockHolder,
      // A record that was never chained and no longer reads (damage in a log written before
      // signing, kept aside on open) cannot be signed: the conversation goes on unsigned, and says so.
      unsigned,
    });
    if (!store.readOnly || Date.now() >= deadline) return store;
    await store.close();
    await new Promise((r) => setTimeout(r, 250));
  }
}
