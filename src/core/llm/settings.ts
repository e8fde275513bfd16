/** Settings of an OpenAI-compatible endpoint, validated once when a client is created. */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { PriceTableSchema } from './pricing';
import { PromptCachingSchema, ReasoningEffortSchema } from './request-hints';

export const LlmSettingsSchema = lazySchema(() =>
  z.object({
    /** E.g. "https://api.openai.com/v1" or "http://localhost:11434/v1". */
    baseUrl: z.url({ protocol: /^https?$/ }),
    /** May be empty for local servers; a placeholder is sent then. */
    apiKey: z.string().default(''),
    model: z.string().min(1),
    // Nullable because VS Code settings use null for "endpoint default".
    temperature: z.number().min(0).max(2).nullish(),
    maxOutputTokens: z.number().int().positive().nullish(),
    extraHeaders: z.record(z.string().min(1), z.string()).nullish(),
    /** Longest wait for the first byte and between two chunks that carry part of the reply. */
    timeoutMs: z.number().int().positive().nullish(),
    /** Longest one attempt may stream, from the request to the last chunk, however steady. */
    replyTimeoutMs: z.number().int().positive().nullish(),
    /** Largest reply (text, reasoning and tool calls, in UTF-8 bytes) one attempt may bring. */
    maxReplyBytes: z.number().int().positive().nullish(),
    /** Retries after the first attempt, for rate limits, 5xx, timeouts and connection errors. */
    maxRetries: z.number().int().min(0).nullish(),
    /** Merged over DEFAULT_PRICES. */
    prices: PriceTableSchema.nullish(),
    /** Prompt-cache hints sent to the endpoint (see request-hints.ts); `auto` when absent. */
    promptCaching: PromptCachingSchema.nullish(),
    /** Sent to models that take it; the endpoint's default when absent. */
    reasoningEffort: ReasoningEffortSchema.nullish(),
  }),
);

export type LlmSettings = z.input<typeof LlmSettingsSchema>;
export type ResolvedLlmSettings = z.output<typeof LlmSettingsSchema>;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 4;
/** Long enough for a slow local model's longest answer; a runaway stream ends here. */
export const DEFAULT_REPLY_TIMEOUT_MS = 600_000;
/** About eight times the longest reply a model with a 128k-token output limit can write. */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** Throws an Error naming every invalid field (values are not echoed: one of them is a key). */
export function resolveLlmSettings(settings: LlmSettings): ResolvedLlmSettings {
  const result = LlmSettingsSchema.safeParse(settings);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`);
  throw new Error(`Invalid LLM settings: ${problems.join('; ')}`);
}
