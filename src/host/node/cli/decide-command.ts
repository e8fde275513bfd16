// `logbook approve` / `reject` / `resolve`: answer the actions a conversation waits on (or, after a
// crash, decide on the ones in doubt), in a new process, and continue the run in the workspace
// recorded by `run`.
import { cliHeadFile } from '../config-dir';
import { openNodeConversation } from '../node-session';
import { cliSigningIdentity } from './signing';
import { expectPositionals, nonEmpty, parseCommandArgs } from './args';
import { assertConversationDir, isDirectory, resolvePath } from './conversation-dir';
import { driveToStop } from './drive';
import { IN_DOUBT_OPTIONS, inDoubtChoice, resolveHint } from './in-doubt';
import { eventPrinter, note } from './event-printer';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { budgetsFromEnv, maxToolCallsFromEnv } from './agent-env';
import { assertEndpointUsable, llmSettingsFromEnv } from './llm-env';
import { demoConnection, demoWanted } from './demo-option';
import { llmVariable } from '../../../core/llm/environment-names';
import { PASS_ENV_OPTION, passEnvironment } from './pass-env';
import { cliSandbox, printSandboxState, SANDBOX_OPTION } from './sandbox-option';
import { MCP_CONFIG_OPTION, mcpConfigFrom, mcpLog } from './mcp-option';
import { readSessionInfo, SESSION_FILE } from './session-file';
import { agentCheckpoints } from './checkpoint-env';

export async function approveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return decide('approve', argv, io);
}

export async function rejectCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return decide('reject', argv, io);
}

/** `logbook resolve CONV_DIR --rerun | --skip`: the user's choice for the actions in doubt. */
export async function resolveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return decide('resolve', argv, io);
}

async function decide(
  command: 'approve' | 'reject' | 'resolve',
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(command, argv, {
    json: { type: 'boolean' },
    ...PASS_ENV_OPTION,
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
    ...(command === 'reject' ? { reason: { type: 'string' } as const } : {}),
    ...(command === 'resolve' ? IN_DOUBT_OPTIONS : {}),
  });
  if (values.help) {
    io.out(COMMAND_HELP[command]);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals(command, positionals, ['CONV_DIR']);
  const reason = nonEmpty(command, 'reason', (values as { reason?: string }).reason);
  if (command === 'reject' && reason === undefined) {
    throw new UsageError('logbook reject: --reason TEXT is required (the agent reads it to adapt).');
  }
  const choice =
    command === 'resolve' ? inDoubtChoice(values as { rerun?: boolean; skip?: boolean }) : undefined;
  const passEnv = passEnvironment(command, values['pass-env'], io.env);
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  const info = readSessionInfo(dir);
  if (!info) {
    throw new Error(
      `${dir} has no ${SESSION_FILE}: only conversations started by \`logbook run\` can continue.`,
    );
  }
  if (!isDirectory(info.workspace)) throw new Error(`The workspace ${info.workspace} no longer exists.`);
  const maxToolCalls = maxToolCallsFromEnv(command, io.env) ?? info.max_tool_calls_per_reply ?? undefined;
  const budgets = budgetsFromEnv(command, io.env);
  const mode = { json: values.json === true };
  const mcpArg = values['mcp-config'];
  const mcpServers = mcpConfigFrom(
    command,
    mcpArg !== undefined ? resolvePath(io, mcpArg) : (info.mcp_config ?? undefined),
  );
  const sandbox = cliSandbox(command, values, io.env);
  // The run's endpoint and model, unless the environment names others; a demo run's demo model.
  const envSettings = llmSettingsFromEnv(io.env, { model: info.model, baseUrl: info.base_url ?? null });
  const demo =
    demoWanted(undefined, io.env) || (info.demo === true && llmVariable(io.env, 'baseUrl') === undefined);
  if (!demo) assertEndpointUsable(command, envSettings);
  note(io, mode, `conversation: ${dir}`);
  printSandboxState(io, mode, sandbox);

  const connection = demo ? await demoConnection(envSettings) : undefined;
  const session = await openNodeConversation({
    storeDir: dir,
    workspace: info.workspace,
    llmSettings: connection?.settings ?? envSettings,
    confirmationMode: info.confirmation,
    id: info.id,
    ...(info.max_iterations !== null ? { maxIterations: info.max_iterations } : {}),
    ...(maxToolCalls !== undefined ? { maxToolCallsPerReply: maxToolCalls } : {}),
    onEvent: eventPrinter(io, mode),
    passEnvironment: passEnv,
    settings: budgets,
    signing: cliSigningIdentity(io),
    signedHeadFile: cliHeadFile(io.env, dir),
    ...checkpointOption(command, info.workspace, io),
    ...(mcpServers ? { mcpServers, onMcpLog: mcpLog(io) } : {}),
    sandbox,
  });
  try {
    const { conversation } = session;
    if (choice) {
      if (conversation.inDoubtActions().length === 0) {
        throw new Error(
          `Nothing in doubt: no action of this conversation (${conversation.status}) started without a recorded result.`,
        );
      }
      await conversation.resolveInDoubt(choice);
      return await driveToStop(io, mode, session, dir);
    }
    const waiting = conversation.awaitingConfirmation();
    if (conversation.status !== 'waiting_for_confirmation' || waiting.length === 0) {
      const inDoubt = conversation.state.inDoubt.length
        ? ` Actions in doubt after a crash wait for your decision: ${resolveHint(dir)}.`
        : '';
      throw new Error(
        `Nothing to ${command}: the conversation is ${conversation.status}, not waiting for confirmation.${inDoubt}`,
      );
    }
    // The whole pending batch: a rejected call's siblings may depend on it, so they go with it.
    if (command === 'approve') await conversation.approve();
    else await conversation.reject(reason!);
    return await driveToStop(io, mode, session, dir);
  } finally {
    await session.close();
    await connection?.server.close();
  }
}

function checkpointOption(
  command: string,
  workspace: string,
  io: CliIo,
): { checkpoints?: ReturnType<typeof agentCheckpoints> } {
  const checkpoints = agentCheckpoints(command, workspace, io.env);
  return checkpoints ? { checkpoints } : {};
}
