// Event builders for context tests, with predictable ids so a Condensation can name any event,
// even one not created yet.
import {
  type ActionEvent,
  type AgentErrorEvent,
  type Condensation,
  createEvent,
  type Event,
  type MessageEvent,
  type ObservationEvent,
} from '../../../src/core/events';

/** A valid UUID made from a number. */
export function idOf(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export class Ids {
  private n = 0;
  next(): string {
    return idOf(++this.n);
  }
}

export function userMsg(ids: Ids, text: string): MessageEvent {
  return createEvent('MessageEvent', {
    id: ids.next(),
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  });
}

export function agentMsg(ids: Ids, text: string): MessageEvent {
  return createEvent('MessageEvent', {
    id: ids.next(),
    llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
  });
}

export function systemPrompt(ids: Ids, text = 'You are a coding agent.'): Event {
  return createEvent('SystemPromptEvent', {
    id: ids.next(),
    system_prompt: { type: 'text', text },
    tools: [],
  });
}

export function action(ids: Ids, callId: string, responseId: string, thought = ''): ActionEvent {
  return createEvent('ActionEvent', {
    id: ids.next(),
    thought: thought ? [{ type: 'text', text: thought }] : [],
    action: { kind: 'CtxTestAction', command: `echo ${callId}` },
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command: `echo ${callId}` }) },
    llm_response_id: responseId,
  });
}

export function observation(
  ids: Ids,
  a: { id: string; tool_call_id: string },
  text = `out ${a.tool_call_id}`,
): ObservationEvent {
  return createEvent('ObservationEvent', {
    id: ids.next(),
    observation: { kind: 'CtxTestObservation', content: [{ type: 'text', text }] },
    action_id: a.id,
    tool_name: 'terminal',
    tool_call_id: a.tool_call_id,
  });
}

export function rejection(ids: Ids, a: ActionEvent, reason = 'not now'): Event {
  return createEvent('UserRejectObservation', {
    id: ids.next(),
    rejection_reason: reason,
    action_id: a.id,
    tool_name: a.tool_name,
    tool_call_id: a.tool_call_id,
  });
}

/** An error answering an existing call (by tool_call_id), or a call that failed validation. */
export function agentError(ids: Ids, callId: string, responseId?: string): AgentErrorEvent {
  return createEvent('AgentErrorEvent', {
    id: ids.next(),
    error: `error for ${callId}`,
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: '{}' },
    ...(responseId !== undefined ? { llm_response_id: responseId } : {}),
  });
}

export function condensation(
  ids: Ids,
  forgotten: readonly string[],
  summary?: string,
  offset?: number,
): Condensation {
  return createEvent('Condensation', {
    id: ids.next(),
    forgotten_event_ids: [...forgotten],
    summary: summary ?? null,
    summary_offset: summary === undefined ? null : (offset ?? 0),
  });
}

export function condensationRequest(ids: Ids): Event {
  return createEvent('CondensationRequest', { id: ids.next() });
}

export function pause(ids: Ids): Event {
  return createEvent('PauseEvent', { id: ids.next() });
}

export function stateUpdate(ids: Ids): Event {
  return createEvent('ConversationStateUpdateEvent', { id: ids.next(), key: 'status', value: 'running' });
}

/** user task, then `pairs` tool calls with results, an agent remark every 7 pairs. */
export function conversation(ids: Ids, pairs: number, outputChars = 40): Event[] {
  const events: Event[] = [systemPrompt(ids), userMsg(ids, 'Fix the bug in parser.ts')];
  for (let i = 0; i < pairs; i++) {
    const a = action(ids, `call_${i}`, `resp_${i}`, `step ${i}`);
    events.push(a, observation(ids, a, `result ${i} `.padEnd(outputChars, 'x')));
    if (i % 7 === 6) events.push(agentMsg(ids, `progress after ${i + 1} steps`));
  }
  return events;
}
