// A conversation on Node parts: the segment log in a directory, the OpenAI-compatible client, the
// file system and a shell of its own, through the session factory both hosts share
// (session/agent-session.ts). The CLI uses it; anything else that runs the agent outside VS Code can too.
import type { ConfiguredHook } from '../../core/hooks/hook-config';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Conversation } from '../../core/agent/conversation';
import type { StoredConversationEvent } from '../../core/agent/event-codec';
import type { HistoryCondenser } from '../../core/agent/ports';
import { LlmSummarizingCondenser } from '../../core/context';
import type { AgentSettings, ConfirmationMode } from '../../core/agent/settings';
import type { ActionEvent, Event } from '../../core/events';
import type { ShellStartup } from '../../core/state';
import { type LlmClient, type LlmSettings, OpenAiLlmClient, type OpenAiLlmClientDeps } from '../../core/llm';
import { modelFetch } from './model-fetch';
import type { EventStore } from '../../core/log';
import type { SigningIdentity } from '../../core/signing';
import { llmSecrets, type NamedSecret } from '../../core/secrets';
import type { FilePort, ToolSpec } from '../../core/tools';
import type { ConversationAgent } from '../../core/agents/conversation-agent';
import type { McpToolRef } from '../../core/agents/mcp-tool-refs';
import { NodeFilePort, NodeTerminalPort } from './ports';
import type { TerminalWatcher } from './ports/node-terminal-port';
import type { CheckpointPort } from '../../core/checkpoints/types';
import { environmentResolver, joinSecrets, McpHub, type ParsedMcpConfig } from './mcp';
import type { CommandSandbox } from './sandbox';
import type { Lookup, WebRules } from './web/guarded-fetch';
import { SearxngSearch } from './web/searxng';
import { openAgentSession, type SessionToolContext } from './session/agent-session';
import { builtInToolNames } from './session/agent-tools';
import { openConversationStore } from './session/conversation-store';

export type { SessionToolContext } from './session/agent-session';

/** The agent's web tools: `fetch` under these rules, and `web_search` when a SearXNG URL is set. */
export interface NodeWebOptions {
  rules: WebRules;
  searxngUrl?: string;
  /** Name resolution for fetches (tests give their own). */
  lookup?: Lookup;
}

export interface NodeSessionOptions {
  /** Directory of the conversation's segment log (created if missing). */
  storeDir: string;
  /** Workspace folder: the terminal starts there and relative paths resolve against it. */
  workspace: string;
  llmSettings: LlmSettings;
  confirmationMode?: ConfirmationMode;
  maxIterations?: number;
  /** Tool calls of one model reply that run (the default setting when absent). */
  maxToolCallsPerReply?: number;
  /** Conversation id put in the derived state (default: the store directory's name). */
  id?: string;
  /** Other agent settings; the options above win over these. */
  settings?: Partial<AgentSettings>;
  /** Where large tool outputs are kept (default `<storeDir>/scratch`, so they survive restarts). */
  scratchDir?: string;
  /**
   * Called for every event appended from now on, including the ones `Conversation.open` writes
   * (system prompt, crash recovery) before a listener could be added to the conversation.
   */
  onEvent?: (event: Event, index: number) => void;
  llmDeps?: OpenAiLlmClientDeps;
  /** Answers instead of the endpoint `llmSettings` names (a replay's recorded replies). */
  llm?: LlmClient;
  /** Secrets besides the endpoint's, redacted from every event (an external agent's key). */
  extraSecrets?: readonly NamedSecret[];
  /** Summarizes old history when the prompt grows too large; null for none. Default: summarizing. */
  condenser?: HistoryCondenser | null;
  /** Variables of Logbook's own (OPENAI_API_KEY, LOGBOOK_*) the agent's shell may see anyway. */
  passEnvironment?: readonly string[];
  /** Signs and chains every event appended (signatures.log beside the segments); none: unsigned. */
  signing?: SigningIdentity;
  /** With `signing`: where the conversation's signed head is kept outside its folder. */
  signedHeadFile?: string;
  /** Records the workspace before each action that can change files; none: no checkpoints. */
  checkpoints?: CheckpointPort;
  /** MCP servers whose tools the agent may use; they start with the run and stop with `close`. */
  mcpServers?: ParsedMcpConfig;
  /**
   * A delegated agent's: the parent session's MCP servers (instead of `mcpServers`), of whose tools
   * it gets those `tools` names (absent: all). They keep running when this session closes.
   */
  sharedMcp?: { hub: () => McpHub | undefined; tools?: readonly McpToolRef[] };
  /** Where to say what happens with the MCP servers (started, renamed tools, failures). */
  onMcpLog?: (line: string) => void;
  /** The sandbox the shell and the stdio MCP servers start in (disposed with the session); none: unsandboxed. */
  sandbox?: CommandSandbox;
  /** Offers `fetch` (and `web_search`); none: the agent has no web tool. */
  web?: NodeWebOptions;
  /** The sandbox is the parent session's (a delegated agent's): closing this session leaves it running. */
  sharedSandbox?: boolean;
  /** The tools the agent gets, from the built-in ones (a delegated agent's subset; the main agent's delegate tool). */
  tools?: (builtIn: ToolSpec[], ctx: SessionToolContext) => ToolSpec[];
  /** Whether the shell reads the user's startup files (default none: a plain shell); recorded in the log. */
  shellStartup?: ShellStartup;
  /** The agent the conversation runs as: its stamp on every event, its prompt sections, its first event. */
  agent?: ConversationAgent;
  /** Why an action may not run here (a replay's copy: a path outside it), or null. */
  boundary?: (action: ActionEvent) => string | null;
  /** The file tools' port made from the disk's (an ACP editor's buffers); default: the disk's. */
  files?: (disk: FilePort) => FilePort;
  /** The hooks in effect (docs/HOOKS.md); none: no hook runs. */
  hooks?: () => readonly ConfiguredHook[];
}

export interface NodeSession {
  conversation: Conversation;
  store: EventStore<StoredConversationEvent>;
  /** The tools the model is offered besides the MCP servers' (the factory's set and the host's own). */
  tools: readonly ToolSpec[];
  /**
   * Stops the command running in the shell, if any, the way Ctrl+C does, so the tool records how it
   * ended. What ignores Ctrl+C is killed with the shell's whole process group by `close`.
   */
  stopCommand(): Promise<void>;
  /** Follows the shell's commands as they print (an external agent reads a running one's output). */
  watchTerminal(watcher: TerminalWatcher): () => void;
  /** Stops the shell and flushes and unlocks the log. Safe to call twice. */
  close(): Promise<void>;
  /** The MCP servers this session started (its delegated agents use them too); none before the first. */
  mcp(): McpHub | undefined;
  /** An allow rule the user just added ("always allow"): the rest of this run follows it too. */
  addAllowRule(rule: string): void;
}

/** The log is locked by another process: this one may only read it. */
export class ConversationBusyError extends Error {
  override name = 'ConversationBusyError';
}

export async function openNodeConversation(opts: NodeSessionOptions): Promise<NodeSession> {
  const storeDir = resolve(opts.storeDir);
  const workspace = resolve(opts.workspace);
  const scratchDir = resolve(opts.scratchDir ?? join(storeDir, 'scratch'));
  // Built first: invalid settings fail before any file or process is created.
  // The model is asked through the CLI's own fetch (model-fetch.ts says why) unless told otherwise.
  const llm: LlmClient =
    opts.llm ?? new OpenAiLlmClient(opts.llmSettings, { fetch: modelFetch(), ...opts.llmDeps });
  mkdirSync(storeDir, { recursive: true });
  const store = await openConversationStore(storeDir, {
    ...(opts.signing ? { signing: opts.signing } : {}),
    ...(opts.id !== undefined ? { conversationId: opts.id } : {}),
    ...(opts.signedHeadFile !== undefined ? { headFile: opts.signedHeadFile } : {}),
  });
  if (store.readOnly) {
    await store.close();
    throw new ConversationBusyError(
      `The conversation in ${storeDir} is in use: ${store.lockHeldBy ?? 'another process holds its lock'}.`,
    );
  }
  const unsubscribe = opts.onEvent
    ? store.subscribe((e, i) => opts.onEvent!(e as Event, i))
    : () => undefined;
  // The client's key never reaches the shell's environment, and is redacted from every event.
  const secrets = [...llmSecrets(opts.llmSettings), ...(opts.extraSecrets ?? [])];
  const sandbox = opts.sandbox;
  // The shell is made at once (Ctrl+C and the exit handler reach it); it starts where the
  // conversation's last command left it, read-only in plan mode, once the conversation is open.
  let readOnly = (): boolean => false;
  const terminal = new NodeTerminalPort({
    cwd: workspace,
    passEnvironment: opts.passEnvironment ?? [],
    secretValues: secrets.map((s) => s.value),
    startup: opts.shellStartup ?? 'none',
    ...(sandbox ? { sandbox: { sandbox, workspaces: [workspace], readOnly: () => readOnly() } } : {}),
  });
  const web = opts.web;
  let mcp: McpHub | undefined;
  const mode = opts.confirmationMode ?? opts.settings?.confirmationMode ?? 'risky';
  const settings: Partial<AgentSettings> = {
    ...opts.settings,
    confirmationMode: mode,
    ...(opts.maxIterations !== undefined ? { maxIterations: opts.maxIterations } : {}),
    ...(opts.maxToolCallsPerReply !== undefined ? { maxToolCallsPerReply: opts.maxToolCallsPerReply } : {}),
  };
  const condenser = opts.condenser === undefined ? new LlmSummarizingCondenser() : opts.condenser;
  // Whatever ends this process (a second Ctrl+C, process.exit), the shell's process group goes too.
  const killShellOnExit = (): void => terminal.dispose();
  process.once('exit', killShellOnExit);
  let closed = false;
  let running: Conversation | undefined;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    // Before the log closes, so the SessionEnd hooks' runs are recorded in it.
    await running?.endSession('exit').catch(() => undefined);
    unsubscribe();
    process.off('exit', killShellOnExit);
    terminal.dispose();
    await mcp?.close();
    if (!opts.sharedSandbox) await sandbox?.dispose();
    await store.close();
  };
  const stopCommand = (): Promise<void> => terminal.interrupt();
  try {
    const session = await openAgentSession({
      id: opts.id ?? storeDir.split(/[\\/]/).pop()!,
      dir: storeDir,
      scratchDir,
      cwd: workspace,
      store,
      llm,
      settings: () => settings,
      tools: web
        ? {
            web: {
              rules: () => web.rules,
              ...(web.searxngUrl ? { search: new SearxngSearch(web.searxngUrl) } : {}),
              ...(web.lookup ? { lookup: web.lookup } : {}),
            },
          }
        : {},
      ...(opts.tools ? { hostTools: opts.tools } : {}),
      toolSource: async (tools) => {
        if (opts.sharedMcp) return opts.sharedMcp.hub()?.source(opts.sharedMcp.tools);
        if (!opts.mcpServers) return undefined;
        mcp = new McpHub({
          cwd: workspace,
          baseEnv: process.env,
          passEnvironment: opts.passEnvironment ?? [],
          secretValues: () => secrets.map((s) => s.value),
          resolve: environmentResolver(process.env),
          reservedNames: [...new Set([...tools.map((t) => t.name), ...builtInToolNames()])],
          log: opts.onMcpLog ?? (() => undefined),
          ...(sandbox ? { sandbox, workspaces: [workspace] } : {}),
        });
        await mcp.configure(opts.mcpServers);
        return mcp.source();
      },
      ports: {
        files: opts.files ? opts.files(new NodeFilePort([workspace])) : new NodeFilePort([workspace]),
        terminal: () => terminal,
      },
      roots: () => [workspace],
      secrets: joinSecrets(
        () => secrets,
        () => (mcp ?? opts.sharedMcp?.hub())?.secrets() ?? NO_SECRETS,
      ),
      ...(condenser ? { condenser } : {}),
      ...(opts.checkpoints ? { checkpoints: opts.checkpoints } : {}),
      ...(sandbox ? { sandbox } : {}),
      shell: () => ({ startup: opts.shellStartup ?? 'none' }),
      ...(opts.agent ? { agent: opts.agent } : {}),
      ...(opts.boundary ? { boundary: opts.boundary } : {}),
      ...(opts.hooks ? { hooks: opts.hooks } : {}),
    });
    readOnly = session.shellPlace.readOnly;
    running = session.conversation;
    terminal.startIn(session.shellPlace.startDir());
    // The CLI opens a conversation to run or to answer it: the servers start now, so the pending
    // actions of their tools are rated by their annotations before anything is decided.
    await session.toolSource?.prepare();
    return {
      conversation: session.conversation,
      store,
      tools: session.tools,
      stopCommand,
      watchTerminal: (watcher) => terminal.watch(watcher),
      close,
      addAllowRule: (rule) => {
        settings.allowRules = [...(settings.allowRules ?? []), rule];
      },
      mcp: () => mcp,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

const NO_SECRETS: readonly NamedSecret[] = [];
