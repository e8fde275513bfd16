// LLM settings from the environment. The key is only ever passed to the client: never printed,
// never written to the conversation directory.
import type { LlmSettings } from '../../../core/llm';

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
  };
}

function nonBlank(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
