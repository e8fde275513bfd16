// LLM settings from the environment. The key is only ever passed to the client: never printed,
// never written to the conversation directory.
import type { LlmSettings } from '../../../core/llm';
import { UsageError } from './exit-codes';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

export function llmSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  /** The model a conversation was started with; LOGBOOK_MODEL still wins when set. */
  storedModel?: string,
): LlmSettings {
  return {
    baseUrl: nonBlank(env.OPENAI_BASE_URL) ?? DEFAULT_BASE_URL,
    apiKey: env.OPENAI_API_KEY ?? '',
    model: nonBlank(env.LOGBOOK_MODEL) ?? storedModel ?? DEFAULT_MODEL,
    replyTimeoutMs: wholeNumber(env, 'LOGBOOK_REPLY_TIMEOUT_SECONDS', 'seconds', 1000),
    maxReplyBytes: wholeNumber(env, 'LOGBOOK_MAX_REPLY_BYTES', 'bytes', 1),
  };
}

/** A positive whole number from the environment, times `scale`; null when unset. */
function wholeNumber(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  unit: string,
  scale: number,
): number | null {
  const raw = nonBlank(env[name]);
  if (raw === undefined) return null;
  if (!/^\d+$/.test(raw) || Number(raw) === 0) {
    throw new UsageError(`${name} must be a positive whole number of ${unit}, not "${raw.slice(0, 40)}".`);
  }
  return Number(raw) * scale;
}

function nonBlank(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
