// A held definition the user accepts (held-definitions.ts) is recorded in the conversations it
// concerns, as an `agent_definition_accepted` update naming the content by fingerprint and when it
// was accepted: one open when it is accepted (the editor's command) records it at once, and one
// that began before an acceptance it did not see (`logbook agents accept`, then a later run) records
// it when it is opened again, before its agents can use the definition. So the log says from which
// step on the conversation could delegate or hand over to it.
import type { Conversation } from '../../../core/agent/conversation';
import { DEFINITION_ACCEPTED_KEY } from '../../../core/agents/definition-trust';
import type { Env } from '../config-dir';
import { definitionFiles } from './agent-files';
import { type AcceptedDefinition, readAcceptedDefinitions } from './held-definitions';

/** Records that the user accepted `accepted`, unless the conversation's log says so already. */
export async function recordAcceptance(
  conversation: Conversation,
  accepted: AcceptedDefinition,
): Promise<boolean> {
  if (conversation.readOnly) return false;
  const events = await conversation.events();
  if (recordedIn(events, accepted)) return false;
  await conversation.recordAgentUpdate(DEFINITION_ACCEPTED_KEY, accepted);
  return true;
}

/**
 * Records the acceptances of this workspace's definitions (and the user's) made after the
 * conversation began that its log does not hold yet; returns those it recorded.
 */
export async function recordAcceptancesSince(
  conversation: Conversation,
  workspace: string,
  env: Env,
): Promise<AcceptedDefinition[]> {
  if (conversation.readOnly) return [];
  const mine = new Set(definitionFiles({ workspace, env, trusted: true }));
  const candidates = readAcceptedDefinitions(env).filter((a) => mine.has(a.origin));
  if (candidates.length === 0) return [];
  const events = await conversation.events();
  const began = events.length ? Date.parse(events[0]!.timestamp) : Date.now();
  const recorded: AcceptedDefinition[] = [];
  for (const a of candidates) {
    if (Date.parse(a.accepted_at) < began || recordedIn(events, a)) continue;
    await conversation.recordAgentUpdate(DEFINITION_ACCEPTED_KEY, a);
    recorded.push(a);
  }
  return recorded;
}

/** Whether the log records this acceptance (the same content, accepted then or since). */
function recordedIn(events: Awaited<ReturnType<Conversation['events']>>, a: AcceptedDefinition): boolean {
  return events.some((e) => {
    if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== DEFINITION_ACCEPTED_KEY) return false;
    const v = e.value as Partial<AcceptedDefinition> | null;
    if (v?.origin !== a.origin || v.fingerprint !== a.fingerprint) return false;
    // One recorded before acceptances carried their time: the same content, recorded since.
    return v.accepted_at === a.accepted_at || (v.accepted_at === undefined && e.timestamp >= a.accepted_at);
  });
}
