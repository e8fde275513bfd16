// `logbook approve` / `reject` / `resolve`: answer the actions a conversation waits on (or, after a
// crash, decide on the ones in doubt), in a new process, and continue the run in the workspace
// recorded by `run`.
import { join } from 'node:path';
import {
  guardsUser,
  type Layer,
  SETTINGS_BY_KEY,
  shownValue,
  valuesLayer,
  valueText,
} from '../../../core/settings';
import { MCP_CONFIG_SHA_KEY, readKeptRecord } from './kept-record';
import { type CliSettings, cliSettings } from './cli-settings';
import { openCliSession, prepareCliSession } from './cli-session';
import { nonEmpty, parseCommandArgs } from './args';
import { assertConversationDir, isDirectory } from './conversation-dir';
import { driveToStop } from './drive';
import { inPlaceAt, NO_INPUT_OPTION } from './ask-in-place';
import { decideInTree } from '../agents/decide-in-tree';
import { IN_DOUBT_OPTIONS, inDoubtChoice, resolveHint } from './in-doubt';

import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { PASS_ENV_OPTION } from './pass-env';
import { SANDBOX_OPTION } from './sandbox-option';
import { MCP_CONFIG_OPTION } from './mcp-option';
import { readSessionInfo, SESSION_FILE, type SessionInfo } from './session-file';
import { isAgentModel, StoppedAgentModel } from '../acp/stopped-agent';
import { agentPermissionTool } from '../acp/permission-tool';
import { readRemoteOrigin } from '../remote/remote-risk';
import { decideRemote } from '../remote/remote-decide';

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
    ...NO_INPUT_OPTION,
    ...PASS_ENV_OPTION,
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
    ...(command === 'reject' ? { reason: { type: 'string' } as const } : {}),
    ...(command === 'resolve' ? {} : { 'runtime-api': { type: 'string' } as const }),
    ...(command === 'resolve' ? IN_DOUBT_OPTIONS : {}),
  });
  if (values.help) {
    io.out(COMMAND_HELP[command]);
    return EXIT.ok;
  }
  const { dir } = conversationDirArg(command, positionals, io);
  const reason = nonEmpty(command, 'reason', (values as { reason?: string }).reason);
  if (command === 'reject' && reason === undefined) {
    throw new UsageError('logbook reject: --reason TEXT is required (the agent reads it to adapt).');
  }
  const choice =
    command === 'resolve' ? inDoubtChoice(values as { rerun?: boolean; skip?: boolean }) : undefined;
  assertConversationDir(dir);
  // A remote conversation is answered on its agent-server, and streams on from there.
  const origin = command === 'resolve' ? undefined : readRemoteOrigin(dir);
  const runtimeApi = (values as { 'runtime-api'?: string })['runtime-api'];
  if (origin) {
    return decideRemote(io, command, {
      dir,
      origin,
      accept: command === 'approve',
      ...(reason !== undefined ? { reason } : {}),
      settings: cliSettings(command, io.env, { flags: values, warn: (line) => io.err(line) }),
      askInPlace: inPlaceAt(io, values, dir) !== undefined,
      json: values.json === true,
      ...(runtimeApi !== undefined ? { runtimeApi } : {}),
    });
  }
  if (runtimeApi !== undefined)
    throw new UsageError(
      `logbook ${command}: --runtime-api is for a conversation that ran on an agent-server.`,
    );
  const info = readSessionInfo(dir);
  if (!info) {
    throw new Error(
      `${dir} has no ${SESSION_FILE}: only conversations started by \`logbook run\` can continue.`,
    );
  }
  if (!isDirectory(info.workspace)) throw new Error(`The workspace ${info.workspace} no longer exists.`);
  const settings = cliSettings(command, io.env, {
    flags: values,
    recorded: recordedLayer(dir, info, io),
    warn: (line) => io.err(line),
  });
  const prepared = prepareCliSession(command, io, settings);
  assertMcpFileUnchanged(command, io, dir, settings, prepared.mcpConfigSha256);
  // A demo run goes on with the demo model, unless the environment names an endpoint.
  const demo =
    settings.get<boolean>('demo') ||
    (info.demo === true && settings.resolved.get('model.baseURL')?.sources[0]?.kind !== 'env');
  const mode = { json: values.json === true };
  const opened = await openCliSession(prepared, {
    storeDir: dir,
    workspace: info.workspace,
    id: info.id,
    mode,
    demo,
    // An external agent's conversation never goes on with a model that was not part of it.
    ...(isAgentModel(info.model)
      ? {
          llm: new StoppedAgentModel(info.model),
          extraTools: [agentPermissionTool(info.model.slice('acp:'.length))],
        }
      : {}),
  });
  const { session } = opened;
  const inPlace = inPlaceAt(io, values, info.workspace);
  try {
    const { conversation } = session;
    if (choice) {
      if (conversation.inDoubtActions().length > 0) await conversation.resolveInDoubt(choice);
      // After a crash inside a delegated agent, the actions in doubt are the child's.
      else if (
        !(await decideInTree(conversation, opened.children, async (child) => {
          if (child.inDoubtActions().length === 0) return false;
          await child.resolveInDoubt(choice);
          return true;
        }))
      ) {
        throw new Error(
          `Nothing in doubt: no action of this conversation (${conversation.status}) started without a recorded result.`,
        );
      }
      return await driveToStop(io, mode, session, dir, opened.children, inPlace);
    }
    const waiting = conversation.awaitingConfirmation();
    // A delegated agent waits (or one it delegated to): the decision is its, and the parent's run
    // carries it on.
    if (conversation.status === 'waiting_for_confirmation' && waiting.length === 0) {
      const decided = await decideInTree(conversation, opened.children, async (child) => {
        if (child.status !== 'waiting_for_confirmation' || child.awaitingConfirmation().length === 0)
          return false;
        if (command === 'approve') await child.approve();
        else await child.reject(reason!);
        return true;
      });
      if (decided) return await driveToStop(io, mode, session, dir, opened.children, inPlace);
    }
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
    return await driveToStop(io, mode, session, dir, opened.children, inPlace);
  } finally {
    await opened.close();
  }
}

/**
 * The MCP file the run used must hold what it held then: the agent's tools may have rewritten it
 * (a workspace's `.mcp.json`, say), and its servers start outside the conversation's confirmations.
 * A file named again by the user (`--mcp-config`, the environment) is theirs to choose.
 */
function assertMcpFileUnchanged(
  command: string,
  io: CliIo,
  dir: string,
  settings: CliSettings,
  sha256: string | undefined,
): void {
  const source = settings.resolved.get('mcp.configFile')?.sources[0]?.kind;
  const file = settings.get<string | null>('mcp.configFile');
  if (source !== 'recorded' || !file) return;
  const kept = readKeptRecord(io.env, dir)?.[MCP_CONFIG_SHA_KEY];
  // A run of an older version kept no fingerprint: nothing to compare with.
  if (typeof kept !== 'string' || kept === sha256) return;
  throw new Error(
    `logbook ${command}: the MCP servers' file ${file} changed since the run started them, so its ` +
      `servers are not started. Read it; to start them as it is now, give --mcp-config ${file}.`,
  );
}

/**
 * What the run recorded: its endpoint, model, confirmation mode, limits and MCP file. The settings
 * that guard the user come from the copy kept in the user's config folder (kept-record.ts), never
 * from session.json alone, which the agent's file tools may have rewritten: a difference is named
 * on stderr and ignored.
 */
function recordedLayer(dir: string, info: SessionInfo, io: CliIo): Layer {
  const file = join(dir, SESSION_FILE);
  const values: Record<string, unknown> = {
    'model.name': info.model ?? undefined,
    'model.baseURL': info.base_url ?? undefined,
    'confirmation.mode': info.confirmation,
    maxIterations: info.max_iterations ?? undefined,
    maxToolCallsPerReply: info.max_tool_calls_per_reply ?? undefined,
    'mcp.configFile': info.mcp_config ?? null,
  };
  const kept = readKeptRecord(io.env, dir);
  for (const key of Object.keys(values).filter(guardsUser)) {
    const keptValue = kept?.[key];
    const inFile = values[key];
    values[key] = keptValue;
    if (valueText(inFile) === valueText(keptValue) || (kept === undefined && isDefault(key, inFile)))
      continue;
    const flag = SETTINGS_BY_KEY.get(key)?.flag?.name;
    io.err(
      `logbook: ${file} sets ${key} to ${shownValue(inFile)}, ` +
        (kept === undefined
          ? 'and this machine kept no record of the run to check it against; '
          : `but the run recorded ${shownValue(keptValue)}; `) +
        `ignored: this setting guards you, so it comes only from your config file, environment and flags` +
        `${flag ? ` (give --${flag} to choose it)` : ''}.`,
    );
  }
  return valuesLayer({ kind: 'recorded', path: file }, values);
}

/** A recorded value that changes nothing: the setting's default (or none). */
function isDefault(key: string, value: unknown): boolean {
  return (
    value === undefined || value === null || valueText(value) === valueText(SETTINGS_BY_KEY.get(key)?.default)
  );
}
