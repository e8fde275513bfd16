// What a conversation is made of: its log, its model, its tools and the host's ports and policies.
import type { HookRunner } from '../hooks/hook-runner';
import type { ActionEvent } from '../events';
import type { EventStore } from '../log/event-store';
import type { LlmClient } from '../llm/types';
import type { CheckpointPort } from '../checkpoints/record';
import type { NamedSecret } from '../secrets';
import type { Skill } from '../skills/skills';
import type { SandboxNotice, ShellNotice } from '../state';
import type { ToolPorts, ToolSpec } from '../tools';
import type { ImagePort } from './agent-step';
import type { StoredConversationEvent } from './event-codec';
import type { ConfirmationGate, HistoryCondenser, ToolSource } from './ports';
import type { AgentSettings } from './settings';
import type { ConversationAgent } from '../agents/conversation-agent';

export interface ConversationDeps {
  id: string;
  store: EventStore<StoredConversationEvent>;
  llm: LlmClient;
  tools: ToolSpec[];
  ports: ToolPorts;
  cwd: string;
  settings?: Partial<AgentSettings>;
  gate: ConfirmationGate;
  condenser?: HistoryCondenser;
  /** Model used for summaries (OpenHands' separate condenser LLM); default: the agent's. */
  condenserLlm?: LlmClient;
  skills?: Skill[];
  platform?: string;
  /** Descriptions of edits the user made to the agent's changes since the last call (from the review). */
  userEditNotes?: () => string[];
  /** Events between two persisted snapshots; default SNAPSHOT_EVERY. */
  snapshotEvery?: number;
  /**
   * Secrets the host knows (the API key the client uses...): replaced by a marker in every event
   * before it is appended and in the streamed deltas. Read at each use; return the same array while
   * the list does not change.
   */
  secrets?: () => readonly NamedSecret[];
  /**
   * Whether the model takes images (read at each call) and where stored images are loaded from.
   * Absent: images are sent, and a stored image no one can load is replaced by a note.
   */
  images?: ImagePort;
  /** Records the workspace's files before each action that can change them; none: no checkpoints. */
  checkpoints?: CheckpointPort;
  /** Tools from outside (MCP servers), started when a run starts; their problems are recorded. */
  toolSource?: ToolSource;
  /**
   * The boundary the agent's commands run in now (the host's sandbox): recorded in the log before
   * a request whenever it differs from what was recorded, so the user is told once, and the log says it.
   */
  sandbox?: () => SandboxNotice;
  /** The kind of shell the agent's commands run in: recorded like the sandbox, for a replay. */
  shell?: () => ShellNotice;
  /** The agent it runs as (its stamp on every event, its prompt); none: events carry no stamp. */
  agent?: ConversationAgent;
  /**
   * The host's own limit on what an action may touch (a replay's copy of the workspace): why an
   * action may not run (it is answered with that), or null. Asked before any other policy.
   */
  boundary?: (action: ActionEvent) => string | null;
  /** The user's hooks (docs/HOOKS.md): run around actions, prompts, stops and waits; none: no hook runs. */
  hooks?: HookRunner;
}
