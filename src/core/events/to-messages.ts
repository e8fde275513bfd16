/**
 * Projection of events onto OpenAI Chat Completions message params.
 *
 * Guarantees, for any event list: every tool call in an assistant message is answered by exactly
 * one tool message; the answers come right after that assistant message, in call order; no tool
 * message lacks its call. To hold them:
 * - a batch is a run of ActionEvents sharing `llm_response_id`; a refused or invalid call is an
 *   ActionEvent with no action whose AgentErrorEvent follows it within the batch (as OpenHands
 *   writes it). Older logs have only the error for such a call: it is rebuilt from the error
 *   (`tool_call` when recorded, else name + "{}") and answered by it;
 * - results are matched to calls by `action_id`, else by the latest unanswered call with that
 *   `tool_call_id`, and re-emitted after the batch whatever their position in the log;
 * - unanswered calls are DROPPED from the assistant message (not given a synthetic answer): a
 *   prompt built while calls await confirmation, or after a crash mid-batch, must not claim a result
 *   that does not exist. The batch's thought is kept as plain text when all its calls are dropped;
 * - results with no matching call, and second results for an answered call, are dropped.
 * Condensation (forgotten events, summaries) is applied by the context View before this runs.
 */
import { type LlmConvertibleEvent, isLlmConvertible } from './accessors';
import { type Content, textOf } from './content';
import { observationText } from './payloads';
import type { AgentErrorEvent, Event, ObservationEvent, UserRejectObservation } from './union';

export interface ChatTextPart {
  type: 'text';
  text: string;
}
export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string };
}
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export interface ChatSystemMessage {
  role: 'system';
  content: string;
}
export interface ChatUserMessage {
  role: 'user';
  content: string | (ChatTextPart | ChatImagePart)[];
}
export interface ChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ChatToolCall[];
  /** Non-standard, understood by reasoning-model servers (DeepSeek, vLLM...); others ignore it. */
  reasoning_content?: string;
}
export interface ChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}
export type ChatMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

type ResultEvent = ObservationEvent | UserRejectObservation | AgentErrorEvent;

interface Call {
  id: string;
  name: string;
  arguments: string;
  answer?: ResultEvent;
  /** Refused or invalid (an ActionEvent with no action): its error comes within its batch. */
  failed?: boolean;
}

interface Batch {
  type: 'batch';
  responseId?: string;
  calls: Call[];
  thought: string;
  reasoning: string;
  firstActionSeen: boolean;
}

type Item = { type: 'message'; message: ChatMessage } | Batch;

export function eventsToMessages(events: Iterable<Event>): ChatMessage[] {
  return emit(collect(events));
}

/** Pass 1: group calls into batches and bind each result to its call. */
function collect(events: Iterable<Event>): Item[] {
  const items: Item[] = [];
  let open: Batch | undefined; // batch that later calls of the same response may still join
  const byActionId = new Map<string, Call>();
  const pending = new Map<string, Call[]>(); // unanswered calls by tool_call_id, oldest first

  const batchFor = (responseId: string | undefined, callId: string): Batch => {
    const compatible =
      open !== undefined &&
      (responseId === undefined || open.responseId === undefined || open.responseId === responseId) &&
      !open.calls.some((c) => c.id === callId); // ids must be unique within one assistant message
    if (!compatible) {
      open = { type: 'batch', responseId, calls: [], thought: '', reasoning: '', firstActionSeen: false };
      items.push(open);
    } else if (open!.responseId === undefined) {
      open!.responseId = responseId;
    }
    return open!;
  };
  const takePending = (callId: string): Call | undefined => {
    const list = pending.get(callId);
    return list?.pop(); // the latest call with this id: ids may be reused across responses
  };
  const answer = (call: Call, result: ResultEvent) => {
    call.answer = result;
    const list = pending.get(call.id) ?? [];
    const i = list.indexOf(call);
    if (i >= 0) list.splice(i, 1);
  };

  for (const e of events) {
    if (!isLlmConvertible(e)) continue; // internal events neither show nor split batches
    switch (e.kind) {
      case 'ActionEvent': {
        const batch = batchFor(e.llm_response_id, e.tool_call_id);
        if (!batch.firstActionSeen) {
          // Only the first action of a response carries the thought and reasoning.
          batch.firstActionSeen = true;
          batch.thought = textOf(e.thought);
          batch.reasoning = e.reasoning_content ?? '';
        }
        const call: Call = {
          id: e.tool_call_id,
          name: e.tool_call.name,
          arguments: e.tool_call.arguments,
          ...(e.action ? {} : { failed: true }),
        };
        batch.calls.push(call);
        byActionId.set(e.id, call);
        pending.set(call.id, [...(pending.get(call.id) ?? []), call]);
        break;
      }
      case 'ObservationEvent':
      case 'UserRejectObservation': {
        open = undefined;
        // action_id names the call exactly; tool_call_id is the fallback for logs that lack it.
        const known = byActionId.get(e.action_id);
        const call = known ? (known.answer ? undefined : known) : takePending(e.tool_call_id);
        if (call) answer(call, e);
        break;
      }
      case 'AgentErrorEvent': {
        const call = takePending(e.tool_call_id);
        if (call) {
          // The error of a refused or invalid call is written among its batch's calls.
          if (!call.failed) open = undefined;
          answer(call, e);
          break;
        }
        // No ActionEvent for this call (a log from before such calls got one): rebuild the call
        // inside its batch.
        const batch = batchFor(e.llm_response_id, e.tool_call_id);
        batch.calls.push({
          id: e.tool_call_id,
          name: e.tool_call?.name ?? e.tool_name,
          arguments: e.tool_call?.arguments ?? '{}',
          answer: e,
        });
        break;
      }
      default:
        open = undefined;
        pushMessage(items, e);
    }
  }
  return items;
}

function pushMessage(items: Item[], e: LlmConvertibleEvent): void {
  const message = plainMessage(e);
  if (message) items.push({ type: 'message', message });
}

function plainMessage(e: LlmConvertibleEvent): ChatMessage | undefined {
  switch (e.kind) {
    case 'SystemPromptEvent':
      return { role: 'system', content: e.system_prompt.text };
    case 'CondensationSummaryEvent':
      return { role: 'user', content: e.summary };
    case 'MessageEvent': {
      const content = [...e.llm_message.content, ...(e.extended_content ?? [])];
      switch (e.llm_message.role) {
        case 'user':
          return { role: 'user', content: userContent(content) };
        case 'system':
          return { role: 'system', content: textOf(content) };
        case 'assistant': {
          // Tool calls on a MessageEvent are not replayed: nothing in the log answers them.
          const m: ChatAssistantMessage = { role: 'assistant', content: textOf(content) };
          if (e.llm_message.reasoning_content) m.reasoning_content = e.llm_message.reasoning_content;
          return m;
        }
        default:
          return undefined; // a bare 'tool' message has no call to answer
      }
    }
    default:
      return undefined;
  }
}

function userContent(content: readonly Content[]): ChatUserMessage['content'] {
  if (!content.some((c) => c.type === 'image')) return textOf(content);
  const parts: (ChatTextPart | ChatImagePart)[] = [];
  for (const c of content) {
    if (c.type === 'text') parts.push({ type: 'text', text: c.text });
    else for (const url of c.image_urls) parts.push({ type: 'image_url', image_url: { url } });
  }
  return parts;
}

function resultText(r: ResultEvent): string {
  switch (r.kind) {
    case 'ObservationEvent':
      return observationText(r.observation);
    case 'UserRejectObservation': {
      const who = r.rejection_source === 'hook' ? 'A hook' : 'The user';
      return r.rejection_reason
        ? `${who} rejected this action: ${r.rejection_reason}`
        : `${who} rejected this action.`;
    }
    case 'AgentErrorEvent':
      return r.error;
  }
}

/** Pass 2: write messages; answered calls only, each followed by its results in call order. */
function emit(items: Item[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const item of items) {
    if (item.type === 'message') {
      pushMerged(out, item.message);
      continue;
    }
    const answered = item.calls.filter((c) => c.answer !== undefined);
    if (answered.length === 0 && item.thought === '') continue;
    const assistant: ChatAssistantMessage = {
      role: 'assistant',
      content: item.thought === '' ? null : item.thought,
    };
    if (answered.length > 0) {
      assistant.tool_calls = answered.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    }
    if (item.reasoning !== '') assistant.reasoning_content = item.reasoning;
    out.push(assistant);
    for (const c of answered) out.push({ role: 'tool', tool_call_id: c.id, content: resultText(c.answer!) });
    const images = resultImages(answered);
    if (images) out.push(images);
  }
  return out;
}

/**
 * Tool messages carry text only, so images a tool returned (file_editor viewing a PNG) follow the
 * batch's results as one user message that says where they come from.
 */
function resultImages(calls: readonly Call[]): ChatUserMessage | undefined {
  const parts: (ChatTextPart | ChatImagePart)[] = [];
  for (const c of calls) {
    const r = c.answer;
    if (r?.kind !== 'ObservationEvent') continue;
    const urls = (r.observation.content ?? []).flatMap((p) => (p.type === 'image' ? p.image_urls : []));
    if (urls.length === 0) continue;
    parts.push({ type: 'text', text: `The image returned by the ${c.name} call ${c.id}:` });
    for (const url of urls) parts.push({ type: 'image_url', image_url: { url } });
  }
  return parts.length > 0 ? { role: 'user', content: parts } : undefined;
}

/** Consecutive user messages become one (some servers demand alternating roles). */
function pushMerged(out: ChatMessage[], message: ChatMessage): void {
  const last = out.at(-1);
  if (message.role !== 'user' || last?.role !== 'user') {
    out.push(message);
    return;
  }
  if (typeof last.content === 'string' && typeof message.content === 'string') {
    last.content = `${last.content}\n\n${message.content}`;
    return;
  }
  const asParts = (c: ChatUserMessage['content']) =>
    typeof c === 'string' ? [{ type: 'text' as const, text: c }] : c;
  last.content = [...asParts(last.content), ...asParts(message.content)];
}
