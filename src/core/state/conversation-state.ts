/**
 * The shape of ConversationState: everything the UI and the agent loop ask about a conversation,
 * derived from the event log by `reduce` (reducer.ts) and never stored as a second truth.
 *
 * The state is plain JSON (no Map/Set/undefined/-0) so a snapshot is `JSON.stringify(state)` and
 * restores deep-equal. Treat it as immutable: the reducer returns new objects and shares the
 * untouched parts with the previous state.
 */
import type { SecurityRisk } from '../events';
import type { SandboxNotice } from './sandbox-notice';
import type { ShellNotice } from './shell-notice';
import type { ExecutionStatus } from './transitions';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One item of the task_tracker tool's list (OpenHands TaskItem). */
export interface Task {
  title: string;
  notes: string;
  /** 'todo' | 'in_progress' | 'done' in OpenHands; kept open for other trackers. */
  status: string;
}

/** Plan mode: the agent may only read and answers with a plan; act mode: it may change things. */
export type AgentMode = 'plan' | 'act';

/** An ActionEvent no observation, rejection or error has answered yet. */
export interface PendingAction {
  actionId: string;
  toolCallId: string;
  toolName: string;
  llmResponseId: string;
  /** The task list of a task_tracker `plan` call: becomes `tasks` once its observation succeeds. */
  plannedTasks: Task[] | null;
}

export interface LatencyStats {
  count: number;
  totalMs: number;
  maxMs: number;
  /** The last RECENT_LATENCIES latencies, oldest first (bounded so the state stays small). */
  recentMs: number[];
}

export interface TokenTotals {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  cost: number;
  calls: number;
}

/** Usage of one LLM slot (`usage_id`: the agent's LLM, the condenser's...). */
export interface UsageMetrics extends TokenTotals {
  usageId: string;
  model: string | null;
  latency: LatencyStats;
}

export interface Metrics {
  /** Keyed by usage id, in order of first appearance. */
  byUsage: Record<string, UsageMetrics>;
  /** Sum over `byUsage`. */
  total: TokenTotals;
}

export interface LastError {
  eventId: string;
  kind: string;
  message: string;
}

/** A tool from outside's own rating (an MCP tool's annotations), as `tools_offered` records it. */
export interface ToolRating {
  risk: SecurityRisk;
  reasons: string[];
  read_only: boolean;
}

export interface ConversationState {
  /** Conversation id given to `initialState`, or null. */
  id: string | null;
  status: ExecutionStatus;
  /** Number of LLM responses (agent steps) on this branch. */
  iteration: number;
  /** Agent steps since the last user message. */
  iterationsThisRun: number;
  metrics: Metrics;
  tasks: Task[];
  /** Skills activated by any message, in first-activation order. */
  activatedSkills: string[];
  pendingActions: PendingAction[];
  /** Distinct `llm_response_id`s of the pending actions, in order. */
  pendingBatchIds: string[];
  /**
   * Action ids whose execution started (an `action_started` update) with no answer yet. After a
   * crash these may or may not have had their side effect: the user decides (recovery.ts).
   */
  inDoubt: string[];
  /** Pending action ids the user approved (an `approved_actions` update) that have no answer yet. */
  approved: string[];
  /**
   * The risk each approved action had when the user approved it (from its `approved_actions`
   * update). Before an approved action runs it is rated again: a higher rating asks again.
   */
  approvedRisks: Record<string, SecurityRisk>;
  /** Models the conversation has said it cannot price (a `cost_unknown` update), so it says so once. */
  costUnknownModels: string[];
  /**
   * The conversation said its workspace cannot be checkpointed (a `checkpoint_unavailable` notice)
   * and no checkpoint was recorded since: the notice is not given again, also after a reopen.
   */
  checkpointsUnavailable: boolean;
  /** The latest `agent_mode` update ('act' when there is none). */
  mode: AgentMode;
  /** The boundary the agent's commands run in, as the latest `sandbox` update recorded it. */
  sandbox: SandboxNotice | null;
  /** The kind of shell the agent's commands run in, as the latest `shell` update recorded it. */
  shell: ShellNotice | null;
  /**
   * Where the agent's shell was after its last terminal command (the observation's
   * `metadata.working_dir`), or null: a shell started again for this conversation starts there.
   */
  shellCwd: string | null;
  /** The sha256 of the tools from outside last recorded as offered (a `tools_offered` update), or null. */
  toolsOfferedSha: string | null;
  /** Each tool from outside's own rating, as the last `tools_offered` update recorded it, by name. */
  toolRatings: Record<string, ToolRating>;
  lastUserMessageId: string | null;
  lastError: LastError | null;
  /** First user message text, shortened for lists. */
  title: string | null;
  /** Events applied, i.e. the length of the current branch. */
  eventCount: number;
  /** Timestamp of the first / latest event that has one, as written. */
  createdAt: string | null;
  updatedAt: string | null;
  /** Id of the last applied event: the HEAD of the event tree. */
  head: string | null;
  /** Latest `confirmation_policy` update value, as written (OpenHands: `{kind: ...}`). */
  confirmationPolicy: JsonValue | null;
  condensations: number;
  /** Anomalies met while reducing (invalid transitions, orphan answers...), the newest MAX_WARNINGS. */
  warnings: string[];
  /**
   * Bookkeeping for `iteration`: the last few response ids counted, so the calls of one parallel
   * batch count once. Ids are unique per LLM call and batches do not interleave, so a short window
   * is exact in practice and keeps every reduce O(1).
   */
  recentResponseIds: string[];
  /**
   * Events about other agents so far (a `delegate` action, an `agent_start` or `agent_end` update),
   * or null when the state was restored from a snapshot written before this was counted. Opening a
   * conversation reads its whole log for its agents only when this is not 0.
   */
  agentEvents: number | null;
}

export const MAX_WARNINGS = 100;
export const RECENT_LATENCIES = 32;
export const RECENT_RESPONSE_IDS = 16;

export function emptyTotals(): TokenTotals {
  return {
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    calls: 0,
  };
}

export function initialState(id: string | null = null): ConversationState {
  return {
    id,
    status: 'idle',
    iteration: 0,
    iterationsThisRun: 0,
    metrics: { byUsage: {}, total: emptyTotals() },
    tasks: [],
    activatedSkills: [],
    pendingActions: [],
    pendingBatchIds: [],
    inDoubt: [],
    approved: [],
    approvedRisks: {},
    costUnknownModels: [],
    checkpointsUnavailable: false,
    mode: 'act',
    sandbox: null,
    shell: null,
    shellCwd: null,
    toolsOfferedSha: null,
    toolRatings: {},
    lastUserMessageId: null,
    lastError: null,
    title: null,
    eventCount: 0,
    createdAt: null,
    updatedAt: null,
    head: null,
    confirmationPolicy: null,
    condensations: 0,
    warnings: [],
    recentResponseIds: [],
    agentEvents: 0,
  };
}
