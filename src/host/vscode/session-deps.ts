// What an open conversation in the editor is given by the window: its folder and workspace, the
// model, the signing key, the window's MCP servers and sandbox, and where to report what happens.
import type * as vscode from 'vscode';
import type { SigningIdentity } from '../../core/signing';
import type { Skill } from '../../core/skills/skills';
import type { SequencedEvent, StreamDelta } from './chat-backend';
import type { ConfiguredLlm } from './configured-llm';
import type { WorkspaceCheckpointStore } from '../node/checkpoints/workspace-store';
import type { EditorMcpServers } from './mcp/editor-mcp-servers';
import type { EditorSandbox } from './sandbox/editor-sandbox';

export interface SessionDeps {
  id: string;
  dir: string;
  cwd: string;
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
  /** The sandbox the agent's commands run in (disposed with the session); none: unsandboxed. */
  sandbox?: EditorSandbox;
}
