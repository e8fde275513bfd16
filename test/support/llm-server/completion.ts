// Turns a scripted reply into Chat Completions payloads: one `chat.completion` object, or the sequence of
// `chat.completion.chunk` objects a streamed answer is made of. Pure: the server decides how to send them.
import { randomBytes } from 'node:crypto';
import { type ChatRequestView } from './chat-request';
import { type FinishReason, type Reply } from './scenario';

const DEFAULT_CHUNK_SIZE = 8;
/** A rough tokens-per-character ratio, enough for tests that check usage is carried through. */
const CHARS_PER_TOKEN = 4;

export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
  /** USD, as OpenRouter reports it; only when the scenario gives one. */
  cost?: number;
}

export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Everything needed to send one reply, with ids, defaults and usage resolved. */
export interface CompletionPlan {
  id: string;
  created: number;
  model: string;
  content: string | null;
  reasoning: string | undefined;
  toolCalls: PlannedToolCall[];
  finishReason: FinishReason;
  usage: UsageBody;
  chunkSize: number;
}

export function newCompletionId(): string {
  return `chatcmpl-${randomBytes(12).toString('hex')}`;
}

export function planCompletion(
  reply: Reply,
  request: ChatRequestView,
  nextCallId: () => string,
): CompletionPlan {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextCallId(),
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  // Like OpenAI: a reply made only of tool calls has `content: null`.
  const content = reply.content ?? (toolCalls.length > 0 ? null : '');
  return {
    id: newCompletionId(),
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    content,
    reasoning: reply.reasoning,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: usageFor(reply, request, content, toolCalls),
    chunkSize: reply.chunkSize ?? DEFAULT_CHUNK_SIZE,
  };
}

function usageFor(
  reply: Reply,
  request: ChatRequestView,
  content: string | null,
  toolCalls: PlannedToolCall[],
): UsageBody {
  const promptChars = JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length;
  const reasoningChars = reply.reasoning?.length ?? 0;
  const outputChars =
    (content?.length ?? 0) +
    reasoningChars +
    toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt = reply.usage?.prompt ?? tokens(promptChars);
  const completion = reply.usage?.completion ?? tokens(outputChars);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: reply.usage?.cached ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reply.usage?.reasoning ?? tokens(reasoningChars),
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    ...(reply.usage?.cost !== undefined ? { cost: reply.usage.cost } : {}),
  };
}

function tokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function completionBody(plan: CompletionPlan): object {
  const message: Record<string, unknown> = { role: 'assistant', content: plan.content, refusal: null };
  if (plan.reasoning !== undefined) message.reasoning_content = plan.reasoning;
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    ...header(plan, 'chat.completion'),
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: plan.usage,
  };
}

/** A completion whose `choices` is empty, which some gateways send and clients must survive. */
export function emptyChoicesBody(plan: CompletionPlan, streamed: boolean): object {
  const object = streamed ? 'chat.completion.chunk' : 'chat.completion';
  return { ...header(plan, object), choices: [], usage: streamed ? null : plan.usage };
}

/**
 * The chunks of a streamed reply, in the order OpenAI sends them: the role, reasoning deltas, content
 * deltas, then each tool call (a first chunk with index, id, type, name and empty arguments, then fragments
 * carrying only index and arguments), a closing chunk with `finish_reason`, and, when the client asked
 * for it, a usage chunk with no choices. `[DONE]` is the transport's business, not a chunk.
 */
export function streamChunks(plan: CompletionPlan, includeUsage: boolean): object[] {
  const chunk = (delta: object, finishReason: FinishReason | null = null): object => ({
    ...header(plan, 'chat.completion.chunk'),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: object[] = [
    chunk({ role: 'assistant', content: plan.content === null ? null : '', refusal: null }),
  ];
  for (const piece of split(plan.reasoning ?? '', plan.chunkSize))
    chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of split(plan.content ?? '', plan.chunkSize)) chunks.push(chunk({ content: piece }));
  plan.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of split(call.arguments, plan.chunkSize)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, plan.finishReason));
  if (includeUsage) chunks.push({ ...header(plan, 'chat.completion.chunk'), choices: [], usage: plan.usage });
  return chunks;
}

function header(plan: CompletionPlan, object: string): object {
  return { id: plan.id, object, created: plan.created, model: plan.model, system_fingerprint: 'fp_scripted' };
}

/** Splits by code points, so a delta never ends in half of a surrogate pair. */
function split(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < codePoints.length; i += size) pieces.push(codePoints.slice(i, i + size).join(''));
  return pieces;
}
