// The one way a CLI command opens a conversation to run the agent (`run`, `approve`, `reject`,
// `resolve`): the model's connection, the MCP servers, checkpoints, the sandbox and the signing
// identity, all from the command's resolved settings. In two steps, so a command can check its
// own arguments between what fails first (bad settings) and what starts anything.
import type { LlmClient, LlmSettings } from '../../../core/llm';
import type { ToolSpec } from '../../../core/tools';
import { resolveLlmSettings } from '../../../core/llm';
import { agentSettingsFrom, llmSettingsFrom } from '../../../core/settings';
import { cliHeadFile } from '../config-dir';
import type { ParsedMcpConfig } from '../mcp';
import { type NodeSession, type NodeSessionOptions, openNodeConversation } from '../node-session';
import type { DemoServer } from '../demo-model/demo-server';
import { agentCheckpoints } from './checkpoint-env';
import { cliHooks } from './cli-hooks';
import type { CliSettings } from './cli-settings';
import { resolvePath } from './conversation-dir';
import { demoConnection } from './demo-option';
import { eventPrinter, note, type OutputMode } from './event-printer';
import type { CliIo } from './io';
import { assertEndpointUsable } from './llm-env';
import { mcpConfigFrom, mcpLog } from './mcp-option';
import { cliSandbox, printSandboxState } from './sandbox-option';
import { cliSigningIdentity } from './signing';
import type { ConfirmationMode } from '../../../core/agent/settings';
import type { AgentDefinition } from '../../../core/agents/definition';
import { loadAgents } from '../agents/agent-files';
import { readFileSync } from 'node:fs';
import { DefinitionWatch, heldHere } from '../agents/definition-watch';
import { type AcceptedDefinition, acceptHeldDefinition } from '../agents/held-definitions';
import { recordAcceptance, recordAcceptancesSince } from '../agents/accepted-definitions';
import { definitionFingerprint, type HeldDefinition, heldLine } from '../../../core/agents/definition-trust';
import type { Event } from '../../../core/events';
import { ACTION_STARTED_KEY } from '../../../core/state';
import { mainAgentSession } from '../agents/main-agent';
import { type NodeChildRunner, nodeChildOpener } from '../agents/child-runner';
import { worktreesRoot } from '../worktrees/task-store';
import { childWorktree, childWorktreeNote } from '../agents/child-worktree';
import { newSessionInfo, readSessionInfo, type SessionInfo, writeSessionInfo } from './session-file';

export interface PreparedSession {
  command: string;
  io: CliIo;
  settings: CliSettings;
  /** The endpoint as the settings name it (the demo model replaces it when the session opens). */
  llmSettings: LlmSettings;
  /** The absolute path of the MCP servers' file, when there is one. */
  mcpConfigPath: string | undefined;
  mcpServers: ParsedMcpConfig | undefined;
  /** The SHA-256 of that file's content as read for this session. */
  mcpConfigSha256: string | undefined;
}

/** Checks what the settings name (endpoint URL, MCP file) before anything is created. */
export function prepareCliSession(command: string, io: CliIo, settings: CliSettings): PreparedSession {
  const llmSettings = llmSettingsFrom(settings.resolved);
  resolveLlmSettings(llmSettings); // a bad base URL fails here
  const configured = settings.get<string | null>('mcp.configFile');
  const mcpConfigPath = configured ? resolvePath(io, configured) : undefined;
  let mcpConfigSha256: string | undefined;
  const mcpServers = mcpConfigFrom(command, mcpConfigPath, (sha) => (mcpConfigSha256 = sha));
  return { command, io, settings, llmSettings, mcpConfigPath, mcpServers, mcpConfigSha256 };
}

export interface CliSessionTarget {
  storeDir: string;
  workspace: string;
  id: string;
  mode: OutputMode;
  /** The built-in demo model instead of the endpoint. */
  demo: boolean;
  /** Printed after the conversation and sandbox lines, before anything starts. */
  notes?: () => void;
  /** The file tools' port made from the disk's (`logbook acp`: the editor's buffers). */
  files?: NodeSessionOptions['files'];
  /** Replies from this instead of the endpoint (`run --agent`: an external ACP agent). */
  llm?: LlmClient;
  /** Tools besides the agent's own (`run --agent`: its permission requests). */
  extraTools?: readonly ToolSpec[];
  /** Redacted from every event besides the endpoint's secrets (`run --agent`: the agent's key). */
  extraSecrets?: NodeSessionOptions['extraSecrets'];
}

export interface CliSession {
  session: NodeSession;
  /** The settings the client talks with (the demo model's when `demo`). */
  llmSettings: LlmSettings;
  /** The conversation's delegated agents: their waiting actions, the user's decisions on them. */
  children: NodeChildRunner;
  /** Closes the session, then the demo model. */
  close(): Promise<void>;
}

export async function openCliSession(
  prepared: PreparedSession,
  target: CliSessionTarget,
): Promise<CliSession> {
  const { command, io, settings } = prepared;
  if (!target.demo && !target.llm) assertEndpointUsable(command, prepared.llmSettings);
  const sandbox = cliSandbox(settings, io.env);
  const checkpoints = agentCheckpoints(target.workspace, settings, io.env);
  note(io, target.mode, `conversation: ${target.storeDir}`);
  printSandboxState(io, target.mode, sandbox);
  target.notes?.();
  let server: DemoServer | undefined;
  let llmSettings = prepared.llmSettings;
  if (target.demo) {
    ({ server, settings: llmSettings } = await demoConnection(llmSettings));
    note(io, target.mode, 'model: the built-in demo model (a scripted walkthrough, no real model)');
  }
  const signing = cliSigningIdentity(io, settings);
  const printer = eventPrinter(io, target.mode);
  const hooks = await cliHooks(io, target.workspace, settings);
  const shared = {
    workspace: target.workspace,
    llmSettings,
    passEnvironment: settings.get<string[]>('terminal.passEnvironment'),
    // The agent's settings as the schema resolves them for both hosts (confirmation, limits, budgets).
    settings: agentSettingsFrom(settings.resolved),
    ...(checkpoints ? { checkpoints } : {}),
    sandbox,
    web: {
      rules: {
        allowPrivateAddresses: settings.get<boolean>('web.allowPrivateAddresses'),
        allowedHosts: settings.get<string[]>('web.allowedHosts'),
      },
      searxngUrl: settings.get<string>('web.searxngUrl'),
    },
    // Delegated agents run the same hooks (their stop is a SubagentStop).
    ...(hooks.length ? { hooks: () => hooks } : {}),
  };
  const accepted = await askAboutHeld(io, target.workspace);
  const agents = cliAgents(io, target.workspace, target.mode, [
    ...(prepared.mcpServers?.servers.keys() ?? []),
  ]);
  // Definitions written while an action runs are held until the user accepts them (definition-watch.ts).
  const watch = new DefinitionWatch({ workspace: target.workspace, env: io.env, trusted: true });
  const printed = (event: Event) => {
    printer(event);
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === ACTION_STARTED_KEY) watch.refresh();
    if (event.kind === 'ObservationEvent' || event.kind === 'AgentErrorEvent')
      heldNotes(io, target.mode, watch.check());
  };
  // Set once the main session is open; its children run after that.
  const opened: { session?: NodeSession } = {};
  const main = mainAgentSession({
    agents,
    parentDir: target.storeDir,
    parentId: target.id,
    signing,
    caps: () => ({ ...shared.settings, allowedHosts: settings.get<string[]>('sandbox.allowedHosts') }),
    model: () => llmSettings.model,
    held: (name) => watch.held(name),
    narrowHosts: (hosts) => sandbox.narrowHostsTo(hosts),
    openChild: nodeChildOpener({
      session: shared,
      headFile: (dir) => cliHeadFile(io.env, dir),
      onEvent: printed,
      // Children use the servers the main agent's session started.
      mcp: () => opened.session?.mcp(),
      // A child with `isolation: worktree`: its own worktree, checkpoints and sandbox there.
      isolate: (spec) => {
        const root = worktreesRoot(settings.get<string | null>('worktrees.dir'), io.env);
        const wt = childWorktree(target.workspace, target.id, spec.agent.name, spec.id, root);
        const own = agentCheckpoints(wt.dir, settings, io.env);
        return {
          workspace: wt.workspace,
          ...(own ? { checkpoints: own } : {}),
          sandbox: cliSandbox(settings, io.env),
          note: () => childWorktreeNote(wt),
        };
      },
      describe: (dir, id) => {
        if (!readSessionInfo(dir))
          writeSessionInfo(dir, childSessionInfo(target, id, settings, llmSettings.model));
      },
    }),
  });
  const session = await openNodeConversation({
    ...shared,
    storeDir: target.storeDir,
    id: target.id,
    onEvent: printed,
    signing,
    signedHeadFile: cliHeadFile(io.env, target.storeDir),
    ...(prepared.mcpServers ? { mcpServers: prepared.mcpServers, onMcpLog: mcpLog(io) } : {}),
    tools: target.extraTools?.length
      ? (builtIn, ctx) => [...main.tools(builtIn, ctx), ...target.extraTools!]
      : main.tools,
    agent: main.agent,
    ...(target.files ? { files: target.files } : {}),
    ...(target.llm ? { llm: target.llm } : {}),
    ...(target.extraSecrets ? { extraSecrets: target.extraSecrets } : {}),
  }).catch(async (err: unknown) => {
    await server?.close();
    throw err;
  });
  opened.session = session;
  await main.adopt(session.conversation);
  // What the user accepted before this run is part of it: the log says which content, by fingerprint,
  // and when; so is what they accepted (`logbook agents accept`) since the conversation began.
  for (const h of accepted) await recordAcceptance(session.conversation, h);
  await recordAcceptancesSince(session.conversation, target.workspace, io.env);
  return {
    session,
    llmSettings,
    children: main.children(),
    close: async () => {
      await session.close();
      await server?.close();
    },
  };
}

/** The agents the main agent can delegate to; definitions that do not parse are named and left out. */
function cliAgents(
  io: CliIo,
  workspace: string,
  mode: OutputMode,
  mcpServers: readonly string[],
): AgentDefinition[] {
  // The CLI has no workspace trust of its own: running it on a workspace is the user's choice.
  const loaded = loadAgents({ workspace, env: io.env, trusted: true, mcpServers });
  for (const e of loaded.errors) note(io, mode, `agent definition left out: ${e}`);
  for (const h of loaded.held) note(io, mode, `agent definition held: ${heldLine(h)}`);
  return loaded.agents;
}

/**
 * At a terminal, asks about each held definition before the run: shown in full, used only on "y".
 * Elsewhere (a script, CI) nothing is asked, and `logbook agents accept NAME` accepts one.
 */
async function askAboutHeld(io: CliIo, workspace: string): Promise<AcceptedDefinition[]> {
  const accepted: AcceptedDefinition[] = [];
  if (!process.stdin.isTTY || !io.ask) return accepted;
  for (const h of heldHere(io.env, workspace)) {
    const text = readFileSync(h.origin, 'utf8');
    io.err(`The agent definition ${h.name} was written or changed while a conversation ran: ${h.origin}`);
    io.err(text.endsWith('\n') ? text.slice(0, -1) : text);
    const answer = await io.ask(`Use the agent ${h.name} as shown? [y/N] `);
    if (answer?.trim().toLowerCase() !== 'y') continue;
    const done = acceptHeldDefinition(io.env, h.origin, definitionFingerprint(text));
    io.err(`Accepted the agent ${h.name} (${done.fingerprint}).`);
    accepted.push({ ...done, name: h.name });
  }
  return accepted;
}

/** Says which definitions were just held, and how to accept one. */
function heldNotes(io: CliIo, mode: OutputMode, held: readonly HeldDefinition[]): void {
  for (const h of held)
    note(
      io,
      mode,
      `agent definition held: ${heldLine(h)}; read it, then \`logbook agents accept ${h.name}\``,
    );
}

/** A delegated agent's session.json: its workspace, so `show` and `verify` read it like any other. */
function childSessionInfo(
  target: CliSessionTarget,
  id: string,
  settings: CliSettings,
  model: string,
): SessionInfo {
  return newSessionInfo({
    id,
    workspace: target.workspace,
    confirmation: settings.get<ConfirmationMode>('confirmation.mode'),
    max_iterations: null,
    model,
    demo: target.demo,
  });
}
