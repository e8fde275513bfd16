// The one session factory: what a conversation needs besides what only its host can give. Both
// hosts call it (the CLI through node-session.ts, VS Code from conversation-session.ts), each
// passing its log, model, file port and shell; here the tool set is made from the settings, the
// search, scratch and image ports are added, the shell's place is tracked, and the gate and the
// conversation are assembled (conversation-assembly.ts).
import { join } from 'node:path';
import type { ConfiguredHook } from '../../../core/hooks/hook-config';
import { HookRunner } from '../../../core/hooks/hook-runner';
import { nodeHookExec } from '../hooks/exec-hook';
import { pinningExec } from '../hooks/pinned-scripts';
import type { Conversation } from '../../../core/agent/conversation';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { PolicyGate } from '../../../core/agent/policy-gate';
import type { HistoryCondenser, ToolSource } from '../../../core/agent/ports';
import type { AgentSettings } from '../../../core/agent/settings';
import type { ConversationAgent } from '../../../core/agents/conversation-agent';
import { stricterConfirmation } from '../../../core/agents/effective-grant';
import { ImageStore } from '../../../core/attachments/image-store';
import type { CheckpointPort } from '../../../core/checkpoints/types';
import type { LlmClient } from '../../../core/llm';
import type { ActionEvent } from '../../../core/events';
import type { EventStore } from '../../../core/log';
import type { NamedSecret } from '../../../core/secrets';
import { SignedEventStore, type SigningIdentity } from '../../../core/signing';
import type { Skill } from '../../../core/skills/skills';
import {
  type FilePort,
  type ShellCwd,
  type TerminalPort,
  type ToolSpec,
  trackShellCwd,
} from '../../../core/tools';
import { assembleConversation } from './conversation-assembly';
import { NodeSearchPort, TempScratchPort } from '../ports';
import { shellStartDir } from '../ports/shell-start';
import type { ShellNotice } from '../../../core/state';
import { type CommandSandbox, secretLocations } from '../sandbox';
import type { HiddenPaths } from '../../../core/security/hidden-paths';
import { hiddenLinkCheck } from '../sandbox/hidden-inodes';
import { type AgentToolOptions, agentTools } from './agent-tools';

/** Where the agent's shell is to start and whether it may write, as the open conversation says. */
export interface ShellPlace {
  startDir(): string;
  /** Plan mode: the sandboxed shell is read-only. */
  readOnly(): boolean;
}

/** What only the host can give: how files are written and where commands run. */
export interface SessionHostPorts {
  /** VS Code: workspace edits (undo, open editors); Node: the file system. */
  files: FilePort;
  /** The agent's shell, asked for at its first use. */
  terminal(place: ShellPlace): TerminalPort;
}

/** What a session's tools may need from it (a delegate tool appends to the log it belongs to). */
export interface SessionToolContext {
  conversation: () => Conversation;
  /** Signs the appends from now on with `identity` (a handoff's new agent); nothing when unsigned. */
  useSigner(identity: SigningIdentity): void;
}

export interface AgentSessionOptions {
  id: string;
  /** The conversation's folder: its images, and its scratch files unless `scratchDir` says otherwise. */
  dir: string;
  /** Where large tool outputs are kept (default `<dir>/scratch`). */
  scratchDir?: string;
  /** The workspace folder: the shell's first place and relative paths' base. */
  cwd: string;
  store: EventStore<StoredConversationEvent>;
  llm: LlmClient;
  /** The agent's settings: read as the conversation opens, and at each decision for confirmation. */
  settings: () => Partial<AgentSettings>;
  /** The settings that shape the built-in tools. */
  tools: AgentToolOptions;
  /** The host's own tools around the built-in ones (the CLI's agents); none: the built-in set. */
  hostTools?: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  /** Tools from outside (MCP servers, the editor's), given the tools they must not shadow. */
  toolSource?: (tools: readonly ToolSpec[]) => ToolSource | undefined | Promise<ToolSource | undefined>;
  ports: SessionHostPorts;
  /** The workspace folders, read at each decision. */
  roots: () => readonly string[];
  /** Secrets the host knows: redacted from every event. */
  secrets: () => readonly NamedSecret[];
  condenser?: HistoryCondenser;
  /** Whether the model takes images, read at each call (default: it does). */
  supportsImages?: () => boolean;
  checkpoints?: CheckpointPort;
  sandbox?: CommandSandbox;
  agent?: ConversationAgent;
  skills?: Skill[];
  userEditNotes?: () => string[];
  /** The kind of shell commands run in (recorded in the log, so a replay starts the same kind). */
  shell?: () => ShellNotice;
  /** The host's own limit on what an action may touch (ConversationDeps.boundary). */
  boundary?: (action: ActionEvent) => string | null;
  /** The hooks in effect, read at each event (docs/HOOKS.md); none: no hook runs. */
  hooks?: () => readonly ConfiguredHook[];
}

export interface AgentSession {
  conversation: Conversation;
  /** The gate the conversation asks (a host shows its ratings of the pending actions). */
  gate: PolicyGate;
  /** The tools the model is offered besides the tool source's. */
  tools: ToolSpec[];
  toolSource: ToolSource | undefined;
  /** Where the conversation's images are kept (its folder's `attachments/`). */
  images: ImageStore;
  /** Where the shell starts now (where the agent's last command left it) and whether it may write. */
  shellPlace: ShellPlace;
}

export async function openAgentSession(opts: AgentSessionOptions): Promise<AgentSession> {
  const { cwd } = opts;
  const scratchDir = opts.scratchDir ?? join(opts.dir, 'scratch');
  // Until the conversation is open it is not known where its shell last was, nor its mode: read late.
  let startDir = (): string => cwd;
  let planMode = (): boolean => false;
  const place: ShellPlace = { startDir: () => startDir(), readOnly: () => planMode() };
  // The gate judges a command's relative paths from where the shell is (an earlier cd carries over).
  let shell: (TerminalPort & ShellCwd) | undefined;
  const terminal = () => (shell ??= trackShellCwd(opts.ports.terminal(place), place.startDir));
  // Images the user attaches or a tool views are kept once in the conversation's folder.
  const images = new ImageStore(opts.dir);
  const ports = {
    images,
    files: opts.ports.files,
    get terminal() {
      return terminal();
    },
    search: new NodeSearchPort(),
    scratch: new TempScratchPort(scratchDir),
  };
  // The file tools write only where a sandboxed command could: the workspace and these folders.
  const writable = (): readonly string[] => opts.sandbox?.writableFolders ?? [];
  // Nor do they read or write what the sandbox hides from commands (its own list, read at each
  // call), but for the scratch folder, where Logbook keeps what the agent is told to read, nor
  // through a hard link to one of their files.
  const locations = (): readonly string[] => opts.sandbox?.hiddenLocations() ?? secretLocations();
  const hidden: HiddenPaths = {
    locations,
    readable: () => [scratchDir],
    links: () => hiddenLinkCheck(locations()),
  };
  const builtIn = agentTools({ ...opts.tools, files: { cwd, writable, hidden } });
  const opened: { conversation?: Conversation } = {};
  const { store } = opts;
  const tools = opts.hostTools
    ? opts.hostTools(builtIn, {
        conversation: () => {
          if (!opened.conversation) throw new Error('The conversation is not open yet.');
          return opened.conversation;
        },
        useSigner: (identity) => {
          if (store instanceof SignedEventStore) store.useIdentity(identity);
        },
      })
    : builtIn;
  const toolSource = await opts.toolSource?.(tools);
  const settings = opts.settings();
  const { conversation, gate } = await assembleConversation({
    id: opts.id,
    store,
    llm: opts.llm,
    tools,
    ports,
    cwd,
    settings,
    images: {
      supportsImages: opts.supportsImages ?? (() => true),
      load: (url) => images.dataUrl(url),
    },
    secrets: opts.secrets,
    ...(opts.condenser ? { condenser: opts.condenser } : {}),
    ...(opts.skills ? { skills: opts.skills } : {}),
    ...(opts.userEditNotes ? { userEditNotes: opts.userEditNotes } : {}),
    ...(toolSource ? { toolSource } : {}),
    ...(opts.checkpoints ? { checkpoints: opts.checkpoints } : {}),
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    ...(opts.agent ? { agent: opts.agent } : {}),
    ...(opts.shell ? { shell: opts.shell } : {}),
    ...(opts.boundary ? { boundary: opts.boundary } : {}),
    ...(opts.hooks
      ? {
          hooks: new HookRunner({
            hooks: opts.hooks,
            exec: pinningExec(nodeHookExec(), cwd),
            cwd,
            conversationId: opts.id,
            transcriptPath: opts.dir,
          }),
        }
      : {}),
    confirmation: () => {
      const s = opts.settings();
      // An agent that took over with a stricter mode than the settings' asks by its own.
      const mode = stricterConfirmation(s.confirmationMode ?? 'risky', opts.agent?.confirmation?.());
      return { mode, allowRules: s.allowRules ?? [] };
    },
    roots: opts.roots,
    writable,
    hidden: hidden.locations,
    ...(hidden.links ? { hiddenLinks: hidden.links } : {}),
    readableRoots: () => [scratchDir],
    shellCwd: () => shell?.cwd ?? place.startDir(),
  });
  opened.conversation = conversation;
  // A resumed conversation's shell starts where its last command left it (a cd the model remembers).
  startDir = () => shellStartDir(conversation.state.shellCwd, cwd);
  planMode = () => conversation.state.mode === 'plan';
  return { conversation, gate, tools, toolSource, images, shellPlace: place };
}
