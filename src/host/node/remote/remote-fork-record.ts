// A fork of a remote conversation, shared by `logbook fork` and the editor's "Continue from here":
// the server copies the conversation (whole, or the branch up to an event) into one of its own,
// idle until run, and the events it copied are appended to the fork's own signed log as received
// from that server, in the server's order, as a run's are.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { parseOwnedEvent } from '../../../core/events';
import type { ConversationStore } from '../session/conversation-store';
import { type AgentServerTarget, allEvents, call, RemoteError } from './agent-server-api';
import { chainRemoteEvent } from './remote-chain';
import type { RemoteOrigin } from './remote-origin';

export interface ServerFork {
  forkId: string;
  events: Record<string, unknown>[];
}

/** POST /api/conversations/{id}/fork, then the fork's events as the server lists them. */
export async function forkOnServer(
  target: AgentServerTarget,
  origin: RemoteOrigin,
  fromEventId: string | undefined,
): Promise<ServerFork> {
  const info = (await call(target, 'POST', `/api/conversations/${origin.conversation_id}/fork`, {
    ...(fromEventId ? { from_event_id: fromEventId } : {}),
  })) as { id?: unknown } | null;
  // The id names a folder: only a plain one is taken.
  if (typeof info?.id !== 'string' || !/^[0-9a-f-]{8,64}$/i.test(info.id))
    throw new RemoteError('the agent-server answered the fork with no conversation id Logbook can use.');
  return { forkId: info.id, events: await allEvents(target, info.id) };
}

/**
 * Appends the fork's events to its store, each marked as received from the server now; stops at
 * the first event Logbook cannot read (those before it are kept) and says why.
 */
export async function recordFork(
  store: ConversationStore,
  server: string,
  events: readonly Record<string, unknown>[],
): Promise<{ written: number; unreadable?: string }> {
  let head: string | undefined;
  let written = 0;
  const at = new Date().toISOString();
  for (const e of events) {
    if (typeof e.id !== 'string' || typeof e.kind !== 'string') continue;
    const parsed = parseOwnedEvent(chainRemoteEvent(e, head, { server, at }));
    if (!parsed.ok) return { written, unreadable: parsed.error.message };
    await store.append(parsed.event as StoredConversationEvent, { durable: true });
    head = parsed.event.id;
    written++;
  }
  return { written };
}
