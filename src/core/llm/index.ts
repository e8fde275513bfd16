/** Public API of the LLM client. Import from `src/core/llm`, not from the files inside. */
export {
  type LlmCallOptions,
  type LlmClient,
  type LlmDelta,
  isLlmError,
  LlmError,
  type LlmErrorKind,
  type LlmRequest,
  type LlmResponse,
  type LlmRetryNotice,
  type LlmToolCall,
  type LlmUsage,
  type CostSource,
  type ToolDefinition,
} from './types';
export { OpenAiLlmClient, type OpenAiLlmClientDeps } from './openai-client';
export {
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REPLY_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type LlmSettings,
  LlmSettingsSchema,
  resolveLlmSettings,
  type ResolvedLlmSettings,
} from './settings';
export {
  costOf,
  DEFAULT_PRICES,
  findPrice,
  type ModelPrice,
  ModelPriceSchema,
  type PriceTable,
  PriceTableSchema,
  readPriceTable,
  replyCost,
} from './pricing';
export {
  cachingStyle,
  endpointFamily,
  type EndpointFamily,
  PROMPT_CACHING_MODES,
  type PromptCaching,
  REASONING_EFFORTS,
  type ReasoningEffort,
  withRequestHints,
} from './request-hints';
export {
  backoffDelayMs,
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  realSleep,
  retryAfterMs,
  type Sleep,
} from './retry';
