// What a delegated agent's log says of how it ended: its recorded end, its final message (finish,
// escalate, or its last words) and why it stopped without finishing, in words for its parent.
import type { Conversation } from '../../../core/agent/conversation';
import { AGENT_END_KEY, type AgentEndValue } from '../../../core/agents/agent-events';
import { ESCALATE_TOOL_NAME } from '../../../core/agents/escalate-tool';
import { FINISH_TOOL_NAME } from '../../../core/events';

export const STOPPED_BY_USER = 'The user stopped the agent before it finished.';

/**
 * Why a child stopped without finishing, for its parent. An error on a model its definition names
 * (unknown to the endpoint, say) names that model, so the parent's model can tell what went wrong.
 */
export function stoppedMessage(status: string, child: Conversation, definedModel: string | null): string {
  const why = child.state.lastError?.message ?? 'no final message';
  if (status === 'error' && definedModel)
    return `The agent stopped (error) on the model "${definedModel}" its definition names: ${why}`;
  return `The agent stopped (${status}): ${why}`;
}

export async function recordedEnd(c: Conversation): Promise<AgentEndValue | undefined> {
  let end: AgentEndValue | undefined;
  for (const e of await c.events())
    if (e.kind === 'ConversationStateUpdateEvent' && e.key === AGENT_END_KEY) end = e.value as AgentEndValue;
  return end;
}

/** The message of the last finish or escalate the child made. */
export async function finalMessage(
  c: Conversation,
): Promise<{ message: string; escalated: boolean } | undefined> {
  let found: { message: string; escalated: boolean } | undefined;
  for (const e of await c.events()) {
    if (e.kind !== 'ActionEvent') continue;
    if (e.tool_name !== FINISH_TOOL_NAME && e.tool_name !== ESCALATE_TOOL_NAME) continue;
    const message = (e.action as { message?: unknown } | null)?.message;
    found = {
      message: typeof message === 'string' ? message : '',
      escalated: e.tool_name === ESCALATE_TOOL_NAME,
    };
  }
  if (found) return found;
  // A final answer without finish: the agent's last message.
  for (const e of (await c.events()).reverse())
    if (e.kind === 'MessageEvent' && e.source === 'agent') {
      const text = e.llm_message.content.map((p) => ('text' in p ? p.text : '')).join('');
      return { message: text, escalated: false };
    }
  return undefined;
}
