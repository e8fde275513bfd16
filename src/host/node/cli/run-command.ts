// `logbook run`: start (or continue) a conversation in a workspace with a task, and run the agent.
import { cliHeadFile } from '../config-dir';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfirmationMode } from '../../../core/agent/settings';
import { type AgentMode, isAgentMode } from '../../../core/agent/plan-mode';
import { resolveLlmSettings } from '../../../core/llm';
import { detectBackend } from '../../../core/log';
import { openNodeConversation } from '../node-session';
import { cliSigningIdentity } from './signing';
import { expectPositionals, nonEmpty, parseCommandArgs, positiveInt } from './args';
import {
  conversationId,
  hasSegmentLog,
  IMPORTED_BASE_STATE,
  isDirectory,
  resolvePath,
} from './conversation-dir';
import { driveToStop } from './drive';
import { resolveHint } from './in-doubt';
import { eventPrinter, note } from './event-printer';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { budgetsFromEnv, maxToolCallsFromEnv } from './agent-env';
import { assertEndpointUsable, llmSettingsFromEnv } from './llm-env';
import { DEMO_OPTION, demoConnection, demoWanted } from './demo-option';
import { excludeStoreFromGit, STORE_EXCLUDE_LINE } from './git-exclude';
import { withoutUrlCredentials } from '../../../core/secrets/url-secrets';
import { PASS_ENV_OPTION, passEnvironment } from './pass-env';
import { cliSandbox, printSandboxState, SANDBOX_OPTION } from './sandbox-option';
import { MCP_CONFIG_OPTION, mcpConfigFrom, mcpLog } from './mcp-option';
import { newSessionInfo, readSessionInfo, writeSessionInfo } from './session-file';
import { agentCheckpoints } from './checkpoint-env';

const MODES: readonly ConfirmationMode[] = ['never', 'risky', 'always'];

export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', argv, {
    workspace: { type: 'string' },
    task: { type: 'string' },
    'confirmation-mode': { type: 'string' },
    confirm: { type: 'string' },
    mode: { type: 'string' },
    store: { type: 'string' },
    'max-iterations': { type: 'string' },
    'max-tool-calls': { type: 'string' },
    json: { type: 'boolean' },
    'no-checkpoints': { type: 'boolean' },
    ...DEMO_OPTION,
    ...PASS_ENV_OPTION,
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.run);
    return EXIT.ok;
  }
  expectPositionals('run', positionals, []);
  const workspaceArg = nonEmpty('run', 'workspace', values.workspace);
  const task = nonEmpty('run', 'task', values.task);
  if (workspaceArg === undefined) throw new UsageError('logbook run: --workspace DIR is required.');
  const agentMode = values.mode === undefined ? undefined : (values.mode as AgentMode);
  if (agentMode !== undefined && !isAgentMode(agentMode)) {
    throw new UsageError(`logbook run: --mode must be plan or act, got "${values.mode}".`);
  }
  // `--mode act` on a conversation in plan mode without a task approves its plan.
  if (task === undefined && !(agentMode === 'act' && values.store !== undefined))
    throw new UsageError('logbook run: --task TEXT is required.');
  const confirm = confirmationMode(values['confirmation-mode'], values.confirm);
  const maxIterations = positiveInt('run', 'max-iterations', values['max-iterations']);
  const maxToolCalls =
    positiveInt('run', 'max-tool-calls', values['max-tool-calls']) ?? maxToolCallsFromEnv('run', io.env);
  const workspace = resolvePath(io, workspaceArg);
  if (!isDirectory(workspace))
    throw new UsageError(`logbook run: the workspace ${workspace} is not a directory.`);
  const demo = demoWanted(values.demo, io.env);
  const envSettings = llmSettingsFromEnv(io.env);
  const passEnv = passEnvironment('run', values['pass-env'], io.env);
  const checkpoints = agentCheckpoints('run', workspace, io.env, values['no-checkpoints'] === true);
  resolveLlmSettings(envSettings); // fail on a bad base URL before creating anything
  const mcpConfigPath =
    values['mcp-config'] !== undefined ? resolvePath(io, values['mcp-config']) : undefined;
  const mcpServers = mcpConfigFrom('run', mcpConfigPath);

  // An existing --store continues that conversation (same workspace); otherwise a new one.
  const newId = randomUUID();
  const storeDir = values.store
    ? resolvePath(io, values.store)
    : join(workspace, '.logbook', 'conversations', newId);
  const previous = readSessionInfo(storeDir);
  if (previous && previous.workspace !== workspace) {
    throw new UsageError(
      `logbook run: ${storeDir} belongs to the workspace ${previous.workspace}, not ${workspace}.`,
    );
  }
  if (values.store && detectBackend(storeDir) === 'openhands') {
    throw new UsageError(`logbook run: ${storeDir} is an OpenHands conversation; import it first.`);
  }
  // A directory `run` used before whose log is gone is not a place to start over unasked.
  if (previous && !hasSegmentLog(storeDir)) {
    throw new Error(
      `${storeDir} held conversation ${previous.id}, but its log is gone (no segments/ or meta.json). ` +
        'Nothing was written. Restore it from a backup, or start a new conversation in another directory.',
    );
  }
  // An imported conversation keeps its OpenHands id.
  const imported = values.store !== undefined && existsSync(join(storeDir, IMPORTED_BASE_STATE));
  const id = previous?.id ?? (imported ? conversationId(storeDir) : newId);
  const budgets = budgetsFromEnv('run', io.env);
  // After the arguments are checked, before anything is created.
  if (!demo) assertEndpointUsable('run', envSettings);
  const mode = { json: values.json === true };
  const sandbox = cliSandbox('run', values, io.env);
  note(io, mode, `conversation: ${storeDir}`);
  printSandboxState(io, mode, sandbox);
  if (values.store === undefined && excludeStoreFromGit(workspace) === 'added')
    note(
      io,
      mode,
      `added ${STORE_EXCLUDE_LINE} to the repository's .git/info/exclude (kept out of git status)`,
    );

  const connection = demo ? await demoConnection(envSettings) : undefined;
  if (connection) note(io, mode, 'model: the built-in demo model (a scripted walkthrough, no real model)');
  const llmSettings = connection?.settings ?? envSettings;
  const session = await openNodeConversation({
    storeDir,
    workspace,
    llmSettings,
    confirmationMode: confirm,
    id,
    ...(maxIterations !== undefined ? { maxIterations } : {}),
    ...(maxToolCalls !== undefined ? { maxToolCallsPerReply: maxToolCalls } : {}),
    onEvent: eventPrinter(io, mode),
    passEnvironment: passEnv,
    settings: budgets,
    signing: cliSigningIdentity(io),
    signedHeadFile: cliHeadFile(io.env, storeDir),
    ...(checkpoints ? { checkpoints } : {}),
    ...(mcpServers ? { mcpServers, onMcpLog: mcpLog(io) } : {}),
    sandbox,
  });
  try {
    const { conversation } = session;
    if (conversation.status === 'waiting_for_confirmation') {
      throw new UsageError(
        `logbook run: the conversation in ${storeDir} waits for confirmation; use approve or reject first.`,
      );
    }
    // Conversation.run would execute them again unasked; their side effect may already have happened.
    const inDoubt = conversation.state.inDoubt;
    if (inDoubt.length > 0) {
      throw new Error(
        `${inDoubt.length} action(s) of this conversation started before a crash and have no recorded ` +
          `result (${inDoubt.join(', ')}), and the CLI will not run them again unasked. Check the ` +
          `workspace (\`logbook show\` lists them), then decide: ${resolveHint(storeDir)}.`,
      );
    }
    const settings = {
      confirmation: confirm,
      max_iterations: maxIterations ?? null,
      max_tool_calls_per_reply: maxToolCalls ?? null,
      model: llmSettings.model,
      // Where approve, reject and resolve connect again: never the key, nor a URL's credentials.
      base_url: connection ? null : withoutUrlCredentials(llmSettings.baseUrl),
      demo,
      mcp_config: mcpConfigPath ?? null,
    };
    writeSessionInfo(storeDir, {
      ...(previous ?? newSessionInfo({ id, workspace, ...settings })),
      ...settings,
    });
    if (task === undefined) {
      if (conversation.state.mode !== 'plan' || conversation.state.tasks.length === 0) {
        throw new UsageError(
          `logbook run: the conversation in ${storeDir} has no plan to approve; give --task TEXT.`,
        );
      }
      await conversation.approvePlan();
    } else {
      if (agentMode !== undefined) await conversation.setMode(agentMode);
      await conversation.sendMessage(task);
    }
    return await driveToStop(io, mode, session, storeDir);
  } finally {
    await session.close();
    await connection?.server.close();
  }
}

/** --confirmation-mode (the name of the setting logbook.confirmation.mode), or its alias --confirm. */
function confirmationMode(mode: string | undefined, alias: string | undefined): ConfirmationMode {
  if (mode !== undefined && alias !== undefined && mode !== alias) {
    throw new UsageError(
      `logbook run: --confirmation-mode ${mode} and --confirm ${alias} disagree (--confirm is another name for it).`,
    );
  }
  const value = mode ?? alias ?? 'risky';
  if (!MODES.includes(value as ConfirmationMode)) {
    const flag = mode !== undefined ? '--confirmation-mode' : '--confirm';
    throw new UsageError(`logbook run: ${flag} must be one of ${MODES.join(', ')}, got "${value}".`);
  }
  return value as ConfirmationMode;
}
