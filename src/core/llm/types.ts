// The LLM client's contract, independent of the `openai` package's types, so the agent loop and
// its tests depend only on this.
import type { ChatMessage } from '../events/to-messages';

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface LlmRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Per-call cap on generated tokens (e.g. for summaries); the client's setting otherwise. */
  maxOutputTokens?: number;
  /** Stable per conversation: lets the provider route its requests to the same prompt cache. */
  cacheKey?: string;
}

/**
 * Transient output while a reply streams in: shown live, never persisted. `discard` says the attempt
 * that published the deltas so far failed and will be retried: forget them, the retry starts afresh.
 */
export type LlmDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { type: 'discard' };

export interface LlmToolCall {
  id: string;
  name: string;
  /** Raw argument text as the model produced it (may be invalid JSON; the agent validates). */
  arguments: string;
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  /** USD the provider itself reported for the call (OpenRouter's `usage.cost`), when it did. */
  providerCost?: number;
}

/**
 * Where a reply's cost came from: the provider's own figure, the price table, or nowhere (the model
 * has no price and the provider reported none, so the cost is unknown and counted as 0).
 */
export type CostSource = 'provider' | 'price' | 'unknown';

export interface LlmResponse {
  /** The provider's response id, shared by every action of this reply. */
  id: string;
  model: string;
  content: string;
  reasoning: string | null;
  toolCalls: LlmToolCall[];
  finishReason: string | null;
  usage: LlmUsage | null;
  /** Cost in USD: the provider's figure, else from the price table; 0 when unknown. */
  cost: number;
  /** Absent from clients that do not say; treated as known. */
  costSource?: CostSource;
  latencyMs: number;
}

/** A failed attempt that will be tried again after `delayMs`. */
export interface LlmRetryNotice {
  /** Why the attempt failed; its message names the endpoint. */
  error: LlmError;
  /** The base URL called, without credentials. */
  endpoint: string;
  /** Number of the attempt about to be made (2 for the first retry) and how many there may be. */
  attempt: number;
  attempts: number;
  delayMs: number;
  /** True when the failed attempt had published deltas (a `discard` delta preceded this notice). */
  discardedPartialReply: boolean;
}

export interface LlmCallOptions {
  signal?: AbortSignal;
  onDelta?: (d: LlmDelta) => void;
  /** Awaited before the wait that precedes a retry, so a caller can record it first. */
  onRetry?: (notice: LlmRetryNotice) => void | Promise<void>;
}

export interface LlmClient {
  readonly model: string;
  complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse>;
}

export type LlmErrorKind =
  | 'context_window_exceeded'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'aborted'
  | 'auth'
  | 'bad_request'
  | 'connection'
  | 'empty_response';

/**
 * The mark every LlmError carries. A bundle loaded on first use (the external agent's) has its own
 * copy of the class, whose errors `instanceof` does not know; a registered symbol is the same in
 * every copy.
 */
const LLM_ERROR = Symbol.for('logbook.LlmError');

/** Every failure of `complete` is an LlmError with a kind the agent can act on. */
export class LlmError extends Error {
  readonly [LLM_ERROR] = true;

  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

/** Whether `err` is an LlmError of any bundle's copy of the class (tell them apart by this, not `instanceof`). */
export function isLlmError(err: unknown): err is LlmError {
  return err instanceof Error && (err as Partial<Record<typeof LLM_ERROR, unknown>>)[LLM_ERROR] === true;
}
