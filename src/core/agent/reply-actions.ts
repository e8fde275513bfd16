// The model's reply, recorded: its usage, then either its message (the agent is done) or one
// action per tool call. A call the policies refuse or that does not validate is recorded as
// OpenHands records it, an action that is null (never pending, never run) answered at once by its
// error, so every tool_call id of the reply stays paired.
import type { ActionEvent, CreateFields } from '../events';
import type { LlmResponse } from '../llm/types';
import { LLM_USAGE_KEY, llmUsageValue } from '../state';
import { type ToolCallValidation, validateToolCall, type ToolSpec } from '../tools';
import type { ConversationLog } from './conversation-journal';
import type { ConversationPolicies } from './policies/policy';

export interface ReplyDeps {
  log: ConversationLog;
  policies: ConversationPolicies;
  /** The tools a call is validated against. */
  tools: () => ToolSpec[];
}

/** 'finished' when the reply called no tool, 'llm' when its calls were recorded. */
export async function recordReply(response: LlmResponse, deps: ReplyDeps): Promise<'llm' | 'finished'> {
  const { log, policies } = deps;
  await log.append('ConversationStateUpdateEvent', {
    key: LLM_USAGE_KEY,
    value: llmUsageValue('agent', response),
  });
  await policies.afterReply(response);

  if (!response.toolCalls.length) {
    await log.append('MessageEvent', {
      source: 'agent',
      llm_message: {
        role: 'assistant',
        content: [{ type: 'text', text: response.content }],
        ...(response.reasoning ? { reasoning_content: response.reasoning } : {}),
      },
      llm_response_id: response.id,
    } as CreateFields<'MessageEvent'>);
    await log.setStatus('finished');
    return 'finished';
  }
  await recordActions(response, deps);
  return 'llm';
}

/** Records the reply's calls in order; returns the actions that may run (pending now). */
export async function recordActions(response: LlmResponse, deps: ReplyDeps): Promise<ActionEvent[]> {
  const { log, policies, tools } = deps;
  const batch: ActionEvent[] = [];
  const total = response.toolCalls.length;
  for (const [index, call] of response.toolCalls.entries()) {
    const toolCall = { id: call.id, name: call.name, arguments: call.arguments, origin: 'completion' };
    const refused = policies.refuseCall({ name: call.name, index, total });
    const checked = refused
      ? ({ ok: false, error: refused } as const)
      : validateToolCall(tools(), call.name, call.arguments);
    const refusal = checked.ok ? policies.refuseValidCall({ spec: checked.spec, args: checked.args }) : null;
    const v = refusal ? ({ ok: false, error: refusal } as const) : await prepared(checked);
    // The first call of a response carries its text, whether it runs or not.
    const first = index === 0;
    const recorded = await log.append('ActionEvent', {
      thought: first && response.content ? [{ type: 'text', text: response.content }] : [],
      reasoning_content: first ? response.reasoning : null,
      action: v.ok ? v.action : null,
      tool_name: call.name,
      tool_call_id: call.id,
      tool_call: toolCall,
      llm_response_id: response.id,
      security_risk: v.ok ? v.security_risk : 'UNKNOWN',
      summary: v.ok ? v.summary : null,
    } as CreateFields<'ActionEvent'>);
    if (!v.ok) {
      await log.append('AgentErrorEvent', {
        error: v.error,
        tool_name: call.name,
        tool_call_id: call.id,
      } as CreateFields<'AgentErrorEvent'>);
      continue;
    }
    batch.push(recorded);
  }
  return batch;
}

/** A valid call whose tool completes its payload (see ToolSpec.prepareAction) gets it completed. */
async function prepared(v: ToolCallValidation): Promise<ToolCallValidation> {
  if (!v.ok || !v.spec.prepareAction) return v;
  try {
    return { ...v, action: await v.spec.prepareAction(v.args, v.action) };
  } catch {
    // The payload as validated: the tool checks again when it runs.
    return v;
  }
}
