/** Public API of conversation state. Import from `src/core/state`, not from the files inside. */
export {
  type ConversationState,
  emptyTotals,
  initialState,
  type JsonValue,
  type LastError,
  type LatencyStats,
  MAX_WARNINGS,
  type Metrics,
  type AgentMode,
  type PendingAction,
  RECENT_LATENCIES,
  RECENT_RESPONSE_IDS,
  type Task,
  type TokenTotals,
  type ToolRating,
  type UsageMetrics,
} from './conversation-state';
export {
  EXECUTION_STATUSES,
  type ExecutionStatus,
  IMPLICIT_TRIGGERS,
  type ImplicitTrigger,
  implicitTransition,
  isValidTransition,
  parseExecutionStatus,
} from './transitions';
export {
  applyLlmUsage,
  applyStats,
  latencyP50,
  LLM_USAGE_KEY,
  llmUsageValue,
  type LlmUsageValue,
  LlmUsageValueSchema,
  STATS_KEY,
  type StatsValue,
  StatsValueSchema,
} from './metrics';
export {
  ACTION_STARTED_KEY,
  AGENT_MODE_KEY,
  APPROVED_ACTIONS_KEY,
  type ActionStartedValue,
  ActionStartedValueSchema,
  CONFIRMATION_POLICY_KEY,
  EXECUTION_STATUS_KEY,
  FULL_STATE_KEY,
  RECONFIRM_KEY,
  COST_UNKNOWN_KEY,
  type ReconfirmValue,
  ReconfirmValueSchema,
  TITLE_KEY,
  REVIEW_REJECTED_KEY,
  TOOLS_OFFERED_KEY,
  RECOVERY_KEY,
  reduce,
  shortTitle,
  TASK_TRACKER_TOOL_NAME,
} from './reducer';
export { branchHeads, branchOf, buildTree, forkPoints, LogTree, type TreeNode } from './branch';
export { type DeriveOptions, deriveState, IncrementalState } from './derive';
export {
  type StateFromStoreOptions,
  type StateSource,
  stateFromStore,
  type StoreState,
  type UsableSnapshot,
  usableSnapshot,
} from './open-state';
export {
  ConversationStateSchema,
  decodeSnapshot,
  decodeSnapshotEnvelope,
  encodeSnapshot,
  SNAPSHOT_VERSION,
} from './snapshot';
export {
  DEFAULT_SNAPSHOT_INTERVAL,
  type SnapshotLoad,
  type SnapshotSink,
  StateTimeline,
  type TimelineOptions,
} from './timeline';
export {
  type EventContext,
  inDoubtActions,
  recoveryEventsOnOpen,
  type RecoveryValue,
  RecoveryValueSchema,
  resolveInDoubt,
  SKIPPED_AFTER_CRASH,
} from './recovery';
export { INTERRUPTED_REASON, type ReaderStatus, statusForReader } from './interrupted';
export {
  type ConversationIndex,
  ConversationIndexFile,
  entryFromState,
  type IndexEntry,
  IndexEntrySchema,
  type IndexLoad,
  type IndexParse,
  INDEX_VERSION,
  parseIndex,
  rebuildIndex,
  removeEntry,
  serializeIndex,
  upsertEntry,
} from './conversation-index';
export { SHELL_KEY, type ShellNotice, ShellNoticeSchema, type ShellStartup } from './shell-notice';
export { UNASKED_KEY, type Unasked, UnaskedSchema, unaskedReason } from './unasked-notice';
export { SANDBOX_KEY, type SandboxNotice, SandboxNoticeSchema, sandboxNoticeChanged } from './sandbox-notice';
