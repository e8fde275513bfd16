// Whose keys a conversation's own log vouches for. After a handoff the agent that took over signs
// the log with its own key, named by `did` in its `agent_start`; a delegated agent's key is named
// the same way in its parent's log. Such a key is vouched for when the event naming it was signed
// by a key already vouched for: the reader's own, one on their trust list, or one an earlier
// `agent_start` vouched for. So a chain of handoffs of any length verifies, and a key named in an
// event an unknown signer signed stays unknown.
import { conversationEventCodec, type StoredConversationEvent } from '../agent/event-codec';
import type { Event } from '../events';
import { isCorruptRecord, openEventStore } from '../log';
import type { SignerTrust, VerifyResult } from '../signing';
import { AGENT_START_KEY, AgentStartValueSchema } from './agent-events';

/** An event and its position in the log (unreadable records keep their slot, as in the chain). */
export interface IndexedEvent {
  event: Event;
  index: number;
}

/** `trust` with the agents' keys the log vouches for added (by name); a broken log vouches for none. */
export function vouchedSigners(
  events: readonly IndexedEvent[],
  r: VerifyResult,
  trust: SignerTrust,
): SignerTrust {
  const known = new Map(trust.known);
  if (r.status === 'broken') return { you: trust.you, known };
  const signerAt = (index: number) => r.signedBy.find((s) => s.from <= index && index <= s.to)?.did;
  const vouched = (did: string) => trust.you.includes(did) || known.has(did);
  for (const { event, index } of events) {
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== AGENT_START_KEY) continue;
    const v = AgentStartValueSchema.safeParse(event.value);
    if (!v.success || !v.data.did) continue;
    const by = signerAt(index);
    if (!by || !vouched(by)) continue;
    if (!vouched(v.data.did)) known.set(v.data.did, `agent ${v.data.agent_name} (${v.data.branch})`);
  }
  return { you: trust.you, known };
}

/** A log's events with their positions, read without taking its lock. */
export async function indexedEvents(dir: string): Promise<IndexedEvent[]> {
  const store = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  const out: IndexedEvent[] = [];
  try {
    let index = 0;
    for await (const slot of store.iterate(0)) {
      if (!isCorruptRecord(slot)) out.push({ event: slot as Event, index });
      index++;
    }
  } finally {
    await store.close();
  }
  return out;
}
