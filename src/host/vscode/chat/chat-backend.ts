// What the chat panel needs from the rest of the extension. The conversation service implements
// it; the chat view only translates protocol messages to these calls and back.
import type * as vscode from 'vscode';
import type {
  Attachment,
  LlmSettingId,
  MentionItem,
  ReplayReport,
  TimelinePoint,
} from '../../../protocol/messages';

/** One event as the view sees it: its position in the conversation's log and its JSON. */
export interface SequencedEvent {
  seq: number;
  event: { kind: string; id: string; [field: string]: unknown };
}

export interface ConversationHeader {
  id: string;
  title: string;
  status: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens?: number;
  cost: number;
  /** Ids of ActionEvents waiting for Confirm / Reject (exactly the pending batch). */
  pendingActionIds: string[];
  /** The effective risk of each pending action and why (the rules may rate it above the model). */
  pendingRisks?: {
    actionId: string;
    risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';
    reason: string;
    byRules?: boolean;
  }[];
  readOnly: boolean;
  /** Read-only because another window writes it: that window, in words. */
  heldBy?: string;
  /** Why it is read-only: another window writes it, or its task was discarded. */
  readOnlyBecause?: 'another-window' | 'task-discarded';
  /** The worktree task it runs: its name and branch. */
  task?: { name: string; branch: string };
  /** The conversation's agent mode (absent: act). */
  mode?: 'plan' | 'act';
  /** In plan mode, the run ended with a plan that waits for Approve plan (derived from the log). */
  planAwaitsApproval?: boolean;
  /** What verifying it found (on open, or Logbook: Verify Conversation); absent: not checked yet. */
  signature?: 'verified' | 'broken' | 'unsigned' | 'truncated' | 'unknown-signer';
  /** The did:keys that signed it, as the last check found them. */
  signers?: string[];
  /** The signers as the badge names them: "you", a name from the trust list, or "… (unknown signer)". */
  signerNames?: string[];
  /** What the last check said, in the words of logbook verify (the badge's tooltip). */
  signatureNote?: string;
  /** When broken: the first bad event, which the chat reveals and marks. */
  brokenAt?: { seq: number; id: string | null; reason: string };
  /**
   * The model the next step will use, and where it runs (`acp`: the external agent that answers;
   * `remote`: the agent-server, by URL, whose agent runs the conversation).
   */
  model?: { name: string; provider: 'openai' | 'vscode' | 'acp' | 'remote' };
  /** The agents it delegated to (the chat nests each under its delegation). */
  children?: ChildAgentView[];
}

/** A delegated agent as the chat's delegation card shows it. */
export interface ChildAgentView {
  conversationId: string;
  /** The conversation whose log delegated to it: the shown one, or (for a grandchild) one of its children. */
  parentConversationId?: string;
  /** The delegating action in the parent's log. */
  parentEventId: string | null;
  agentName: string;
  branch: string;
  task: string;
  /** What its definition asked for beyond its parent's grant and did not get (effective-grant.ts). */
  narrowed?: string[];
  /** The model it runs on (absent in logs from before that was recorded). */
  model?: string;
  status: string;
  cost: number;
  tokens: number;
  /** Its actions waiting for Confirm / Reject, and their risks. */
  pendingActionIds: string[];
  pendingRisks: {
    actionId: string;
    risk: 'LOW' | 'MEDIUM' | 'HIGH' | 'UNKNOWN';
    reason: string;
    byRules?: boolean;
  }[];
}

/** Transient output while the model answers: shown live, never persisted. */
export type StreamDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; index: number; name?: string; argumentsDelta: string }
  | { type: 'end' }
  /** The attempt streamed so far failed and is retried: the view drops what it showed. */
  | { type: 'discard' };

/** One step of a plan the user approved (maybe edited); `status` as the plan had it. */
export interface PlanStep {
  title: string;
  notes: string;
  status?: 'todo' | 'in_progress' | 'done';
}

export interface ChatBackend {
  /** The conversation the panel shows, or undefined for the empty state. */
  readonly activeId: string | undefined;
  header(conversationId: string): ConversationHeader | undefined;
  /** Events with seq > afterSeq (for resync after the view was hidden or reloaded). */
  eventsAfter(conversationId: string, afterSeq: number): Promise<SequencedEvent[]>;
  /** The last `max` events (at most) with seq < beforeSeq, in order. */
  eventsBefore(conversationId: string, beforeSeq: number, max: number): Promise<SequencedEvent[]>;
  /** How many events the conversation's log holds. */
  eventCount(conversationId: string): Promise<number>;

  readonly onDidChangeActive: vscode.Event<string | undefined>;
  readonly onDidAppend: vscode.Event<{ conversationId: string; events: SequencedEvent[] }>;
  readonly onDidChangeHeader: vscode.Event<ConversationHeader>;
  readonly onDidStream: vscode.Event<{ conversationId: string; delta: StreamDelta }>;
  /** Events a delegated agent of a conversation appended. */
  readonly onDidAppendChild?: vscode.Event<{
    conversationId: string;
    childId: string;
    events: SequencedEvent[];
  }>;
  /** A delegated agent's events after `afterSeq`. */
  childEventsAfter?(conversationId: string, childId: string, afterSeq: number): Promise<SequencedEvent[]>;

  sendMessage(
    text: string,
    attachments?: { activeFile?: boolean; selection?: boolean; mentions?: Attachment[] },
    mode?: 'plan' | 'act',
  ): Promise<void>;
  /** The mode a new conversation starts in (logbook.agent.defaultMode); absent: act. */
  defaultMode?(): 'plan' | 'act';
  /** The tasks the demo model has a script for, when it is the model that answers; else undefined. */
  demoTasks?(): readonly string[] | undefined;
  /** Switches the conversation between plan mode (read only) and act mode. */
  setMode(conversationId: string, mode: 'plan' | 'act'): Promise<void>;
  /** Approves the plan (as the user may have edited it): act mode, the plan as the next message, run. */
  approvePlan(conversationId: string, tasks: PlanStep[]): Promise<void>;
  /** What a mention being typed ("@src/ap", "#prob") may complete to, best first. */
  /** `prompts`: a "/" starts the message, and the MCP servers' prompts are what is asked for. */
  mentionCandidates(query: string, prompts?: boolean): Promise<MentionItem[]>;
  /** A stored image of a conversation as a data URL (for its thumbnail); undefined when unreadable. */
  imageDataUrl(conversationId: string, url: string): Promise<string | undefined>;
  startTask(): Promise<void>;
  approve(conversationId: string, actionIds: string[]): Promise<void>;
  reject(conversationId: string, actionIds: string[], reason: string): Promise<void>;
  /** "Always allow" this command prefix, then approve the action. */
  alwaysAllow(conversationId: string, actionId: string, commandPrefix: string): Promise<void>;
  pause(conversationId: string): Promise<void>;
  resume(conversationId: string): Promise<void>;
  stop(conversationId: string): Promise<void>;
  /** Fork the conversation so its HEAD is this event, and open the fork. */
  forkFrom(conversationId: string, eventId: string): Promise<unknown>;
  /** "Restore files to here": preview the files a restore to this event changes, ask, restore. */
  restoreFiles(conversationId: string, eventId: string): Promise<unknown>;
  /** Open the diff of a file edit made (or proposed) by this action. */
  openDiff(conversationId: string, actionId: string): Promise<void>;
  openInEditor(): Promise<void>;
  /** Shows one of the model's settings in the Settings editor (from a failed call's error card). */
  openSettings(setting: LlmSettingId): Promise<void>;
  /** Runs "Logbook: Set API Key". */
  setApiKey(): Promise<void>;
  /** Runs "Logbook: Select Model". */
  selectModel(): Promise<void>;
  /** Runs "Logbook: Show Sandbox Status". */
  showSandboxStatus(): Promise<void>;

  /** The timeline: the conversation right after the event at `seq` (state, files changed so far). */
  timelinePoint(conversationId: string, seq: number): Promise<TimelinePoint>;
  /** A file the point lists, in a diff editor: from the first checkpoint to the point, or to now. */
  timelineDiff(conversationId: string, seq: number, path: string, against: 'start' | 'now'): Promise<void>;
  /** "Open files at this point": the point's versions of the changed files, read-only. */
  timelineOpenFiles(conversationId: string, seq: number): Promise<void>;
  /** A replay of a conversation started (no report) or ended (Logbook: Replay Conversation). */
  readonly onDidReplay?: vscode.Event<{ conversationId: string; report?: ReplayReport }>;
  /** A delegated agent's card to show: the chat shows the conversation, then opens and focuses the card. */
  readonly onDidRevealChild?: vscode.Event<{ conversationId: string; childIds: string[] }>;
}
