// A conversation's log, opened the same way by both hosts: the segment log in its folder, signed
// and chained when there is an identity to sign with.
import { conversationEventCodecWith, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { EventStoreError, SegmentEventStore } from '../../../core/log';
import { type SignedEventStore, type SigningIdentity, openSignedStore } from '../../../core/signing';
import { payloadSchemasForReading } from './read-payloads';

export interface ConversationStoreOptions {
  /** Signs and chains every event appended (signatures.log beside the segments); none: unsigned. */
  signing?: SigningIdentity;
  /** The id the chain is bound to (default: the folder's name). */
  conversationId?: string;
  /** Where the signed head is kept outside the folder. */
  headFile?: string;
  /** Goes on after events the log lost (the user chose so; see SegmentStoreOptions). */
  acceptLostEvents?: boolean;
  /** This process, in words, for the writer lock: another that finds it held names it. */
  lockHolder?: string;
  /**
   * A record written before signing that no longer reads cannot be chained: given this, the log
   * opens unsigned and `unsigned` is told why; without it, that refusal is an error.
   */
  unsigned?: (why: string) => void;
}

export type ConversationStore =
  SignedEventStore<StoredConversationEvent> | SegmentEventStore<StoredConversationEvent>;

export async function openConversationStore(
  dir: string,
  opts: ConversationStoreOptions = {},
): Promise<ConversationStore> {
  const options = {
    // Each tool payload read back is checked (one that fails is a corrupt record, with the reason)
    // against the built-in and MCP tools' schemas: the log opens before the conversation's own tools exist.
    codec: conversationEventCodecWith(payloadSchemasForReading()),
    ...(opts.acceptLostEvents !== undefined ? { acceptLostEvents: opts.acceptLostEvents } : {}),
    ...(opts.lockHolder !== undefined ? { lockHolder: opts.lockHolder } : {}),
  };
  if (!opts.signing) return SegmentEventStore.open<StoredConversationEvent>(dir, options);
  const { unsigned } = opts;
  return openSignedStore<StoredConversationEvent>(dir, {
    ...options,
    identity: opts.signing,
    ...(opts.conversationId !== undefined ? { conversationId: opts.conversationId } : {}),
    ...(opts.headFile !== undefined ? { headFile: opts.headFile } : {}),
  }).catch((err: unknown) => {
    if (!unsigned || !isUnsignableDamage(err)) throw err;
    // The conversation goes on unsigned, and says so: Verify reports the damaged record, never "verified".
    unsigned(err.message);
    return SegmentEventStore.open<StoredConversationEvent>(dir, options);
  });
}

/**
 * The signer refused because a record it would chain late is unreadable (signed-store.ts). Any
 * other refusal (a malformed signatures.log, a chain longer than the log) stays an error.
 */
function isUnsignableDamage(err: unknown): err is EventStoreError {
  return err instanceof EventStoreError && err.code === 'UNSIGNABLE';
}
