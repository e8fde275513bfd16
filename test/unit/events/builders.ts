// Small event builders for tests; everything goes through createEvent so it is validated.
import {
  type ActionEvent,
  type AgentErrorEvent,
  createEvent,
  type MessageEvent,
  type ObservationEvent,
  type UserRejectObservation,
} from '../../../src/core/events';

export function userMsg(text: string): MessageEvent {
  return createEvent('MessageEvent', { llm_message: { role: 'user', content: [{ type: 'text', text }] } });
}

export function agentMsg(text: string): MessageEvent {
  return createEvent('MessageEvent', {
    llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
  });
}

export function action(callId: string, responseId: string, thought = '', name = 'terminal'): ActionEvent {
  const args = JSON.stringify({ command: `echo ${callId}` });
  return createEvent('ActionEvent', {
    thought: thought ? [{ type: 'text', text: thought }] : [],
    action: { kind: 'TerminalAction', command: `echo ${callId}` },
    tool_name: name,
    tool_call_id: callId,
    tool_call: { id: callId, name, arguments: args, origin: 'completion' },
    llm_response_id: responseId,
  });
}

export function observation(a: ActionEvent, text = `out ${a.tool_call_id}`): ObservationEvent {
  return createEvent('ObservationEvent', {
    observation: { kind: 'TerminalObservation', content: [{ type: 'text', text }], is_error: false },
    action_id: a.id,
    tool_name: a.tool_name,
    tool_call_id: a.tool_call_id,
  });
}

export function reject(a: ActionEvent, reason = 'no'): UserRejectObservation {
  return createEvent('UserRejectObservation', {
    rejection_reason: reason,
    action_id: a.id,
    tool_name: a.tool_name,
    tool_call_id: a.tool_call_id,
  });
}

/** A call that failed validation: no ActionEvent exists for it. */
export function failedCall(callId: string, responseId?: string, withToolCall = true): AgentErrorEvent {
  return createEvent('AgentErrorEvent', {
    error: `bad arguments for ${callId}`,
    tool_name: 'terminal',
    tool_call_id: callId,
    ...(withToolCall ? { tool_call: { id: callId, name: 'terminal', arguments: '{"cmd":1}' } } : {}),
    ...(responseId !== undefined ? { llm_response_id: responseId } : {}),
  });
}

/** An execution error answering an existing action. */
export function execError(a: ActionEvent): AgentErrorEvent {
  return createEvent('AgentErrorEvent', {
    error: 'boom',
    tool_name: a.tool_name,
    tool_call_id: a.tool_call_id,
  });
}
