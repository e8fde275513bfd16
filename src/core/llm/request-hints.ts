/**
 * Provider-specific fields added to a Chat Completions body: prompt-cache hints and reasoning
 * effort. Endpoints differ in what they accept, so the hints depend on which endpoint family the
 * base URL belongs to (docs/llm-endpoints.md lists them per provider). Pure: the client calls
 * `withRequestHints` on the body it is about to send.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

export const PROMPT_CACHING_MODES = ['auto', 'off', 'key', 'breakpoints'] as const;
/**
 * `auto`: what the endpoint is known to take (a cache key for OpenAI and Azure, cache breakpoints
 * for Anthropic and Gemini models on OpenRouter, nothing where caching is automatic anyway);
 * `key`/`breakpoints`: always that hint, for gateways `auto` does not recognise; `off`: none.
 */
export type PromptCaching = (typeof PROMPT_CACHING_MODES)[number];
export const PromptCachingSchema = lazySchema(() => z.enum(PROMPT_CACHING_MODES));

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
export const ReasoningEffortSchema = lazySchema(() => z.enum(REASONING_EFFORTS));

export type EndpointFamily = 'openai' | 'azure' | 'openrouter' | 'other';

export function endpointFamily(baseUrl: string): EndpointFamily {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return 'other';
  }
  if (host === 'api.openai.com') return 'openai';
  if (host.endsWith('.openai.azure.com') || host.endsWith('.services.ai.azure.com')) return 'azure';
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  return 'other';
}

/** Anthropic allows four breakpoints per request; the system prompt and the last two turns use three. */
const TURN_BREAKPOINTS = 2;

export interface RequestHints {
  family: EndpointFamily;
  model: string;
  caching: PromptCaching;
  reasoningEffort: ReasoningEffort | null;
  /** Stable per conversation, so the provider routes its requests to the same cache. */
  cacheKey: string | undefined;
}

type Body = { messages: readonly unknown[] };

/** The body with the hints added; messages that get a breakpoint are copied, never changed in place. */
export function withRequestHints<B extends Body>(body: B, hints: RequestHints): B {
  const out: Record<string, unknown> = { ...body };
  const style = cachingStyle(hints);
  if (style === 'key' && hints.cacheKey) out.prompt_cache_key = hints.cacheKey;
  if (style === 'breakpoints') out.messages = withBreakpoints([...body.messages]);
  if (hints.reasoningEffort) {
    // OpenRouter normalises reasoning across providers through its own `reasoning` object.
    if (hints.family === 'openrouter') out.reasoning = { effort: hints.reasoningEffort };
    else out.reasoning_effort = hints.reasoningEffort;
  }
  return out as B;
}

export function cachingStyle(
  hints: Pick<RequestHints, 'family' | 'model' | 'caching'>,
): 'key' | 'breakpoints' | 'none' {
  switch (hints.caching) {
    case 'off':
      return 'none';
    case 'key':
    case 'breakpoints':
      return hints.caching;
    case 'auto':
      if (hints.family === 'openai' || hints.family === 'azure') return 'key';
      if (hints.family === 'openrouter' && /^(anthropic|google)\//i.test(hints.model)) return 'breakpoints';
      return 'none';
  }
}

/**
 * Marks the end of the system prompt and of the last two user or tool turns as cache breakpoints:
 * the previous request wrote the cache up to its last turn, so this one reads it there and writes
 * the new end for the next.
 */
function withBreakpoints(messages: unknown[]): unknown[] {
  const out = [...messages];
  const marked = new Set<number>();
  const system = out.findIndex((m) => roleOf(m) === 'system');
  if (system >= 0) marked.add(system);
  let turns = 0;
  for (let i = out.length - 1; i >= 0 && turns < TURN_BREAKPOINTS; i--) {
    const role = roleOf(out[i]);
    if (role === 'user' || role === 'tool') {
      marked.add(i);
      turns++;
    }
  }
  for (const i of marked) out[i] = withBreakpoint(out[i] as Record<string, unknown>);
  return out;
}

function withBreakpoint(message: Record<string, unknown>): Record<string, unknown> {
  const content = message.content;
  const mark = { type: 'ephemeral' };
  if (typeof content === 'string') {
    if (content === '') return message;
    return { ...message, content: [{ type: 'text', text: content, cache_control: mark }] };
  }
  if (!Array.isArray(content)) return message;
  // The breakpoint goes on the last text part; image parts cannot carry one everywhere.
  const last = content.findLastIndex((p) => (p as { type?: unknown })?.type === 'text');
  if (last < 0) return message;
  const parts = [...content];
  parts[last] = { ...(parts[last] as object), cache_control: mark };
  return { ...message, content: parts };
}

function roleOf(message: unknown): unknown {
  return message !== null && typeof message === 'object' ? (message as { role?: unknown }).role : undefined;
}
