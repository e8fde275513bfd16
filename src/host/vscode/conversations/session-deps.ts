// What an open conversation in the editor is given by the window: its folder and workspace, the
// model, the signing key, the window's MCP servers and sandbox, and where to report what happens.
import type * as vscode from 'vscode';
import type { SigningIdentity } from '../../../core/signing';
import type { Skill } from '../../../core/skills/skills';
import type { ConversationAgent } from '../../../core/agents/conversation-agent';
import type { AgentSettings } from '../../../core/agent/settings';
import type { ToolSpec } from '../../../core/tools';
import type { SessionToolContext } from '../../node/session/agent-session';
import type { ChildAgentView, SequencedEvent, StreamDelta } from '../chat/chat-backend';
import type { ConfiguredLlm } from '../lm/configured-llm';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import type { EditorMcpServers } from '../mcp/editor-mcp-servers';
import type { McpToolRef } from '../../../core/agents/mcp-tool-refs';
import type { EditorSandbox } from '../sandbox/editor-sandbox';
import type { EditorAgent } from '../acp/editor-agent';
import type { TaskStepGuard } from '../../node/worktrees/task-steps';

export interface SessionDeps {
  id: string;
  dir: string;
  cwd: string;
  /** Its workspace folders when not the window's: a worktree task's worktree (files, terminals, sandbox). */
  roots?: readonly string[];
  /** The worktree task it runs, named in the chat's header. */
  task?: { name: string; branch: string };
  /** A worktree task's: STEP is taken for each run, so the CLI applies or discards only between them. */
  stepGuard?: TaskStepGuard;
  llm: ConfiguredLlm;
  skills: Skill[];
  log: vscode.LogOutputChannel;
  onAppend(events: SequencedEvent[]): void;
  onHeader(): void;
  onStream(delta: StreamDelta): void;
  /** Edits the user made to the agent's changes since the last call (from the inline review). */
  userEditNotes(): string[];
  /** The user chose to continue without events the log lost (see SegmentStoreOptions). */
  acceptLostEvents?: boolean;
  /** Signs and chains every event appended (signatures.log beside the segments). */
  signing: SigningIdentity;
  /** Where the conversation's signed head is kept outside its folder (the extension's global storage). */
  headFile: string;
  /** This window, in words, for the writer lock: another window that finds it held names it. */
  lockHolder: string;
  /** The workspace's checkpoint store; none (no workspace folder): no checkpoints. */
  checkpoints?: WorkspaceCheckpointStore;
  /** The window's MCP servers, whose tools the conversation may use. */
  mcp?: EditorMcpServers;
  /** Only these of their tools (a delegated agent's definition names them); absent: all. */
  mcpTools?: readonly McpToolRef[];
  /** The sandbox the agent's commands run in (disposed with the session); none: unsandboxed. */
  sandbox?: EditorSandbox;
  /** The sandbox is the parent's (a delegated agent's session): disposing this one leaves it. */
  sharedSandbox?: boolean;
  /** The agent the conversation runs as (its stamp on every event, its prompt sections). */
  agent?: ConversationAgent;
  /** The tools it gets from the built-in ones (the main agent's delegate tool; a child's subset). */
  tools?: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  /** Settings that win over the editor's (a delegated agent's caps). */
  settings?: Partial<AgentSettings>;
  /** Answers a pending action of a delegated agent (ids the conversation itself does not hold). */
  children?: ChildDecisions;
  /** An external ACP agent answers instead of the model (stopped with the session). */
  external?: EditorAgent;
}

/** The user's answers to actions delegated agents wait on, by their action ids. */
export interface ChildDecisions {
  /** Whether a child holds any of these actions; it records the answer, and the parent runs on. */
  approve(ids: readonly string[]): Promise<boolean>;
  reject(ids: readonly string[], reason: string): Promise<boolean>;
  /** The delegated agents, as the chat's delegation cards show them. */
  views(): ChildAgentView[];
  dispose(): Promise<void>;
}
