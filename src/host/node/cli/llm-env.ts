// LLM settings from the environment. The key is only ever passed to the client: never printed,
// never written to the conversation directory.
import {
  PROMPT_CACHING_MODES,
  type PromptCaching,
  REASONING_EFFORTS,
  type ReasoningEffort,
  readPriceTable,
  type LlmSettings,
  type PriceTable,
} from '../../../core/llm';
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
    prices: pricesFromEnv(env),
    promptCaching: choiceFromEnv(env, 'LOGBOOK_PROMPT_CACHING', PROMPT_CACHING_MODES) as PromptCaching | null,
    reasoningEffort: choiceFromEnv(
      env,
      'LOGBOOK_REASONING_EFFORT',
      REASONING_EFFORTS,
    ) as ReasoningEffort | null,
  };
}

/** One of `choices` from the environment; null when unset. */
function choiceFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  choices: readonly string[],
): string | null {
  const raw = nonBlank(env[name]);
  if (raw === undefined) return null;
  if (!choices.includes(raw)) {
    throw new UsageError(`${name} must be one of ${choices.join(', ')}, not "${raw.slice(0, 40)}".`);
  }
  return raw;
}

export const PRICING_ENV = 'LOGBOOK_PRICING';

/**
 * LOGBOOK_PRICING, the CLI's `logbook.llm.pricing`: JSON keyed by model name, e.g.
 * `{"my-model":{"input":3,"cachedInput":0.3,"output":15}}` (USD per 1M tokens). Null when unset.
 */
export function pricesFromEnv(env: Readonly<Record<string, string | undefined>>): PriceTable | null {
  const raw = nonBlank(env[PRICING_ENV]);
  if (raw === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(
      `${PRICING_ENV} must be JSON such as {"my-model":{"input":3,"cachedInput":0.3,"output":15}} (USD per 1M tokens).`,
    );
  }
  const { table, problems } = readPriceTable(value);
  if (problems.length > 0) throw new UsageError(`${PRICING_ENV}: ${problems.join('; ')}.`);
  return table;
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
