// The one way a CLI command opens a conversation to run the agent (`run`, `approve`, `reject`,
// `resolve`): the model's connection, the MCP servers, checkpoints, the sandbox and the signing
// identity, all from the command's resolved settings. In two steps, so a command can check its
// own arguments between what fails first (bad settings) and what starts anything.
import type { LlmSettings } from '../../../core/llm';
import { resolveLlmSettings } from '../../../core/llm';
import { llmSettingsFrom } from '../../../core/settings';
import { cliHeadFile } from '../config-dir';
import type { ParsedMcpConfig } from '../mcp';
import { type NodeSession, openNodeConversation } from '../node-session';
import type { DemoServer } from '../demo-model/demo-server';
import { agentCheckpoints } from './checkpoint-env';
import type { CliSettings } from './cli-settings';
import { resolvePath } from './conversation-dir';
import { demoConnection } from './demo-option';
import { eventPrinter, note, type OutputMode } from './event-printer';
import type { CliIo } from './io';
import { assertEndpointUsable } from './llm-env';
import { mcpConfigFrom, mcpLog } from './mcp-option';
import { cliSandbox, printSandboxState } from './sandbox-option';
import { cliSigningIdentity } from './signing';

export interface PreparedSession {
  command: string;
  io: CliIo;
  settings: CliSettings;
  /** The endpoint as the settings name it (the demo model replaces it when the session opens). */
  llmSettings: LlmSettings;
  /** The absolute path of the MCP servers' file, when there is one. */
  mcpConfigPath: string | undefined;
  mcpServers: ParsedMcpConfig | undefined;
}

/** Checks what the settings name (endpoint URL, MCP file) before anything is created. */
export function prepareCliSession(command: string, io: CliIo, settings: CliSettings): PreparedSession {
  const llmSettings = llmSettingsFrom(settings.resolved);
  resolveLlmSettings(llmSettings); // a bad base URL fails here
  const configured = settings.get<string | null>('mcp.configFile');
  const mcpConfigPath = configured ? resolvePath(io, configured) : undefined;
  const mcpServers = mcpConfigFrom(command, mcpConfigPath);
  return { command, io, settings, llmSettings, mcpConfigPath, mcpServers };
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
}

export interface CliSession {
  session: NodeSession;
  /** The settings the client talks with (the demo model's when `demo`). */
  llmSettings: LlmSettings;
  /** Closes the session, then the demo model. */
  close(): Promise<void>;
}

export async function openCliSession(
  prepared: PreparedSession,
  target: CliSessionTarget,
): Promise<CliSession> {
  const { command, io, settings } = prepared;
  if (!target.demo) assertEndpointUsable(command, prepared.llmSettings);
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
  const session = await openNodeConversation({
    storeDir: target.storeDir,
    workspace: target.workspace,
    llmSettings,
    confirmationMode: settings.get('confirmation.mode'),
    id: target.id,
    maxIterations: settings.get('maxIterations'),
    maxToolCallsPerReply: settings.get('maxToolCallsPerReply'),
    onEvent: eventPrinter(io, target.mode),
    passEnvironment: settings.get('terminal.passEnvironment'),
    settings: { maxTokens: settings.get('budget.maxTokens'), maxCost: settings.get('budget.maxCost') },
    signing: cliSigningIdentity(io, settings),
    signedHeadFile: cliHeadFile(io.env, target.storeDir),
    ...(checkpoints ? { checkpoints } : {}),
    ...(prepared.mcpServers ? { mcpServers: prepared.mcpServers, onMcpLog: mcpLog(io) } : {}),
    sandbox,
    web: {
      rules: {
        allowPrivateAddresses: settings.get('web.allowPrivateAddresses'),
        allowedHosts: settings.get('web.allowedHosts'),
      },
      searxngUrl: settings.get('web.searxngUrl'),
    },
  }).catch(async (err: unknown) => {
    await server?.close();
    throw err;
  });
  return {
    session,
    llmSettings,
    close: async () => {
      await session.close();
      await server?.close();
    },
  };
}
