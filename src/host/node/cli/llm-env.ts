// LLM settings from the environment (LOGBOOK_BASE_URL, LOGBOOK_API_KEY, LOGBOOK_MODEL, with
// OPENAI_BASE_URL and OPENAI_API_KEY as fallbacks). The key is only ever passed to the client:
// never printed, never written to the conversation directory.
import {
  PROMPT_CACHING_MODES,
  type PromptCaching,
  REASONING_EFFORTS,
  type ReasoningEffort,
  readPriceTable,
  type LlmSettings,
  type PriceTable,
} from '../../../core/llm';
import { LLM_VARIABLES, llmVariable } from '../../../core/llm/environment-names';
import { UsageError } from './exit-codes';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

/** What a run recorded of its connection (session.json): the environment's values still win. */
export interface RecordedConnection {
  model?: string | null;
  baseUrl?: string | null;
}

export function llmSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  recorded: RecordedConnection = {},
): LlmSettings {
  return {
    baseUrl: llmVariable(env, 'baseUrl')?.value ?? recorded.baseUrl ?? DEFAULT_BASE_URL,
    apiKey: llmVariable(env, 'apiKey')?.value ?? '',
    model: llmVariable(env, 'model')?.value ?? recorded.model ?? DEFAULT_MODEL,
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

/**
 * Fails at once, naming what is missing, where the client would otherwise send a request without a
 * key to the default endpoint and retry it until it gives up.
 */
export function assertEndpointUsable(
  command: string,
  settings: Pick<LlmSettings, 'apiKey' | 'baseUrl'>,
): void {
  if (settings.apiKey || settings.baseUrl !== DEFAULT_BASE_URL) return;
  const [key, keyFallback] = LLM_VARIABLES.apiKey;
  const [url, urlFallback] = LLM_VARIABLES.baseUrl;
  throw new UsageError(
    [
      `logbook ${command}: no model to talk to: ${key} (or ${keyFallback}) is not set, and without it ` +
        `the default endpoint ${DEFAULT_BASE_URL} refuses every request.`,
      `  OpenAI:        ${key}=sk-...`,
      `  another or a local OpenAI-compatible endpoint (no key needed), e.g. Ollama:`,
      `                 ${url}=http://localhost:11434/v1 ${LLM_VARIABLES.model[0]}=llama3.2  (or ${urlFallback})`,
      '  the demo model: logbook run --demo ... (or LOGBOOK_DEMO=1)',
    ].join('\n'),
  );
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
