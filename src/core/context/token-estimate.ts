/**
 * A rough token count (characters / 4) of what an event adds to a prompt. Good enough to decide
 * when to condense; the provider's usage numbers remain the truth.
 */
import { type LlmConvertibleEvent, text, thinking } from '../events';

export const CHARS_PER_TOKEN = 4;
/** Per-message overhead of the chat format (role, separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** Images cost a bounded number of tokens whatever the length of their (data) URL. */
const IMAGE_TOKENS = 1000;

const cache = new WeakMap<object, number>();

export function estimateTokens(e: LlmConvertibleEvent): number {
  const cached = cache.get(e);
  if (cached !== undefined) return cached;
  let chars = text(e).length + thinking(e).length;
  let images = 0;
  if (e.kind === 'ActionEvent') chars += e.tool_call.name.length + e.tool_call.arguments.length;
  if (e.kind === 'MessageEvent') {
    for (const c of e.llm_message.content) if (c.type === 'image') images += c.image_urls.length;
  }
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS + MESSAGE_OVERHEAD_TOKENS;
  cache.set(e, tokens);
  return tokens;
}

export function estimateTokensOf(events: readonly LlmConvertibleEvent[]): number {
  let sum = 0;
  for (const e of events) sum += estimateTokens(e);
  return sum;
}
