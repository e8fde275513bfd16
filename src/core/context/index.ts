/** Public API of the context module. Import from `src/core/context`, not from the files inside. */
export { View, type ViewLike } from './view';
export { ViewBuilder, type ViewCheckpoint } from './view-builder';
export { type LedgerEvent, ViewLedger } from './view-ledger';
export {
  type CondensationFields,
  type CondenseOptions,
  LlmSummarizingCondenser,
  type SummarizingCondenserOptions,
  tokenLimitForContextWindow,
} from './summarizing-condenser';
export { type CondensationPlan, type CondensationReason } from './condensation-plan';
export {
  FORGOTTEN_LIST_MAX,
  type ForgottenRange,
  forgottenCount,
  forgottenFields,
  idsInRange,
} from './forgotten-range';
export { ForgottenRangeLister } from './forgotten-range-lister';
export { SUMMARY_SYSTEM_PROMPT } from './summary-prompt';
export { CHARS_PER_TOKEN, estimateTokens, estimateTokensOf } from './token-estimate';
export { benchPromptBuild, benchPromptBuildScaling, type PromptBuildBench } from './bench-prompt';
