/**
 * Convenience accessors: one question, one function, for every kind (opaque events included), so
 * callers do not switch on kinds for common needs.
 */
import { textOf, type MessageToolCall } from './content';
import { observationText } from './payloads';
import {
  type ActionEvent,
  type AgentErrorEvent,
  type CondensationSummaryEvent,
  type Event,
  type EventKind,
  isOpaque,
  type MessageEvent,
  type ObservationEvent,
  type SystemPromptEvent,
  type UserRejectObservation,
} from './union';

export type LlmConvertibleEvent =
  | SystemPromptEvent
  | MessageEvent
  | ActionEvent
  | ObservationEvent
  | UserRejectObservation
  | AgentErrorEvent
  | CondensationSummaryEvent;

const LLM_KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'CondensationSummaryEvent',
]);

/** True for the kinds that become LLM messages (the `LLMConvertibleEvent` family). */
export function isLlmConvertible(e: Event): e is LlmConvertibleEvent {
  return !isOpaque(e) && LLM_KINDS.has(e.kind);
}

/** The events that go to the LLM, in order. */
export function llmConvertibleEvents(events: Iterable<Event>): LlmConvertibleEvent[] {
  const out: LlmConvertibleEvent[] = [];
  for (const e of events) if (isLlmConvertible(e)) out.push(e);
  return out;
}

/** Human/LLM-readable text of an event ('' when it has none). */
export function text(e: Event): string {
  if (isOpaque(e)) return '';
  switch (e.kind) {
    case 'MessageEvent':
      return textOf([...e.llm_message.content, ...(e.extended_content ?? [])]);
    case 'ActionEvent':
      return textOf(e.thought);
    case 'ObservationEvent':
      return observationText(e.observation);
    case 'UserRejectObservation':
      return e.rejection_reason;
    case 'AgentErrorEvent':
      return e.error;
    case 'SystemPromptEvent':
      return e.system_prompt.text;
    case 'CondensationSummaryEvent':
      return e.summary;
    case 'Condensation':
      return e.summary ?? '';
    case 'ConversationErrorEvent':
      return e.detail;
    default:
      return '';
  }
}

/** Reasoning text of an LLM output: `reasoning_content`, else the thinking blocks ('' if none). */
export function thinking(e: Event): string {
  if (isOpaque(e)) return '';
  let reasoning: string | null | undefined;
  let blocks: readonly { type: string; thinking?: unknown }[] | undefined;
  if (e.kind === 'ActionEvent') {
    reasoning = e.reasoning_content;
    blocks = e.thinking_blocks;
  } else if (e.kind === 'MessageEvent') {
    reasoning = e.llm_message.reasoning_content;
    blocks = e.llm_message.thinking_blocks;
  } else {
    return '';
  }
  if (reasoning) return reasoning;
  const parts: string[] = [];
  for (const b of blocks ?? [])
    if (b.type === 'thinking' && typeof b.thinking === 'string') parts.push(b.thinking);
  return parts.join('\n');
}

/** Tool calls the LLM made in this event (an ActionEvent holds exactly one). */
export function toolCalls(e: Event): readonly MessageToolCall[] {
  if (isOpaque(e)) return [];
  if (e.kind === 'ActionEvent') return [e.tool_call];
  if (e.kind === 'MessageEvent') return e.llm_message.tool_calls ?? [];
  return [];
}

/** Name of the tool the `finish` action calls (OpenHands FinishTool). */
export const FINISH_TOOL_NAME = 'finish';

/**
 * True when the agent is done talking: a plain agent reply (no tool calls) or a `finish` call.
 * The agent loop stops on either.
 */
export function isFinalResponse(e: Event): boolean {
  if (isOpaque(e)) return false;
  if (e.kind === 'MessageEvent') return e.source === 'agent' && toolCalls(e).length === 0;
  if (e.kind === 'ActionEvent') return e.tool_name === FINISH_TOOL_NAME;
  return false;
}

/** The error this event reports, or null. A user rejection is a decision, not an error. */
export function errorOf(e: Event): string | null {
  if (isOpaque(e)) return null;
  switch (e.kind) {
    case 'AgentErrorEvent':
      return e.error;
    case 'ConversationErrorEvent':
      return `${e.code}: ${e.detail}`;
    case 'ObservationEvent':
      return e.observation.is_error ? textOf(e.observation.content) : null;
    default:
      return null;
  }
}
