// What the conversation loop needs besides the log, the LLM and the tools: small interfaces so
// confirmation rules and history condensation can evolve (and be tested) on their own.
import type { CheckpointCoverage } from '../checkpoints/types';
import type { ForgottenRange, ViewLike } from '../context';
import type { ActionEvent } from '../events';
import type { LlmClient } from '../llm/types';
import type { ToolSpec } from '../tools';

export interface ConfirmationDecision {
  actionId: string;
  confirm: boolean;
  risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';
  reasons: string[];
  /** Why the risk is what it is: the findings of the analyzers that rated it highest. */
  riskReasons?: string[];
  /** The rule-based checks' own findings when they rated it that high (not only the model). */
  ruleReasons?: string[];
  /** The rule-based checks' own rating (the model's aside), with their findings at that rating. */
  ruled?: { risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN'; reasons: string[] };
  /** It runs unasked because it stays in the sandbox and a checkpoint can undo it (`reasons` says so). */
  contained?: true;
  /** Why a checkpoint could not undo it, when that is what makes it ask. */
  notUndoable?: string;
}

/** Decides which actions of a batch must wait for the user's Confirm. */
export interface ConfirmationGate {
  decide(actions: readonly ActionEvent[]): ConfirmationDecision[];
  /** Where the agent's shell is now, when known: commands are judged from there. */
  shellCwdNow?(): string | undefined;
  /**
   * Whether the decisions on these actions weigh what a checkpoint would hold: then it is read
   * before them (a git listing of the workspace, so not for actions it cannot change).
   */
  wantsCoverage?(actions: readonly ActionEvent[]): boolean;
  /** What a checkpoint taken now would hold (null: nothing is known to be undoable). */
  setCoverage?(coverage: CheckpointCoverage | null): void;
}

/** The fields of a Condensation event to append. */
export interface CondensationFields {
  forgotten_event_ids: string[];
  forgotten_range?: ForgottenRange;
  summary: string | null;
  summary_offset: number | null;
  llm_response_id: string | null;
}

/** Keeps the prompt within the model's limits by summarizing old events. */
export interface HistoryCondenser {
  /** True when the view is too large and should be condensed before the next call. */
  shouldCondense(view: ViewLike): boolean;
  /** `force`: after a context-window error or a manual request; condense even below the limits. */
  condense(
    view: ViewLike,
    llm: LlmClient,
    opts: { force: boolean; signal?: AbortSignal },
  ): Promise<CondensationFields | null>;
}

/** A problem with tools from outside that the log records (a server that failed or stopped). */
export interface ToolSourceNotice {
  /** Who: e.g. `mcp:github`. */
  source: string;
  message: string;
}

/**
 * Tools besides the built-in ones, whose set can change during a conversation (MCP servers that
 * start, crash or are reconfigured). `prepare` starts what is needed, once per run; `tools` is read
 * at every step; notices are taken once, each recorded as a `tool_source` update.
 */
export interface ToolSource {
  prepare(): Promise<void>;
  tools(): readonly ToolSpec[];
  takeNotices(): ToolSourceNotice[];
}

/** Key of the ConversationStateUpdateEvent that records a ToolSourceNotice. */
export const TOOL_SOURCE_KEY = 'tool_source';
