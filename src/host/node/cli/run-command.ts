// `logbook run`: start (or continue) a conversation in a workspace with a task, and run the agent.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfirmationMode } from '../../../core/agent/settings';
import { type AgentMode, isAgentMode } from '../../../core/agent/plan-mode';
import { detectBackend } from '../../../core/log';
import { nonEmpty, parseCommandArgs } from './args';
import { type CliSettings, cliSettings } from './cli-settings';
import { openCliSession, prepareCliSession } from './cli-session';
import {
  conversationId,
  hasSegmentLog,
  IMPORTED_BASE_STATE,
  isDirectory,
  resolvePath,
} from './conversation-dir';
import { driveToStop } from './drive';
import { inPlaceAt, NO_INPUT_OPTION } from './ask-in-place';
import { resolveHint } from './in-doubt';
import { note } from './event-printer';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { DEMO_OPTION } from './demo-option';
import { excludeStoreFromGit, STORE_EXCLUDE_LINE } from './git-exclude';
import { withoutUrlCredentials } from '../../../core/secrets/url-secrets';
import { PASS_ENV_OPTION } from './pass-env';
import { cliSandbox, SANDBOX_OPTION } from './sandbox-option';
import { MCP_CONFIG_OPTION } from './mcp-option';
import { newSessionInfo, noteTitle, readSessionInfo, writeSessionInfo } from './session-file';
import { keepRecord } from './kept-record';
import { agentsReport, childrenInDoubt } from './agents-report';
import { agentEntry } from '../acp/agent-entry';
import { splitWorktreeName, WORKTREE_OPTIONS, worktreeArgs } from './worktree-option';
import { startTask } from './task-start';
import { runSetup, setupSteps } from './task-setup';
import { workingTreeOf } from './task-cli';

export async function runCommand(rawArgv: readonly string[], io: CliIo): Promise<number> {
  const split = splitWorktreeName(rawArgv);
  const argv = split.argv;
  const { values, positionals: given } = parseCommandArgs('run', argv, {
    workspace: { type: 'string' },
    task: { type: 'string' },
    'confirmation-mode': { type: 'string' },
    confirm: { type: 'string' },
    mode: { type: 'string' },
    store: { type: 'string' },
    'max-iterations': { type: 'string' },
    'max-tool-calls': { type: 'string' },
    json: { type: 'boolean' },
    agent: { type: 'string' },
    remote: { type: 'string' },
    'remote-dir': { type: 'string' },
    'runtime-api': { type: 'string' },
    image: { type: 'string' },
    'runtime-timeout': { type: 'string' },
    'pause-runtime': { type: 'boolean' },
    'no-checkpoints': { type: 'boolean' },
    ...DEMO_OPTION,
    ...NO_INPUT_OPTION,
    ...PASS_ENV_OPTION,
    ...MCP_CONFIG_OPTION,
    ...SANDBOX_OPTION,
    ...WORKTREE_OPTIONS,
  });
  if (values.help) {
    io.out(COMMAND_HELP.run);
    return EXIT.ok;
  }
  const inWorktree = values.worktree === true;
  if (!inWorktree && (split.name !== undefined || values.carry))
    throw new UsageError('logbook run: --carry and a task name go with --worktree.');
  if (inWorktree && (values.store !== undefined || values['no-checkpoints'] === true))
    throw new UsageError(
      'logbook run: --worktree starts a new task with checkpoints; it takes no --store or --no-checkpoints.',
    );
  const { name: taskName, positionals } = inWorktree
    ? worktreeArgs(argv, given, split.name)
    : { name: undefined, positionals: given };
  const task = taskFrom(positionals, nonEmpty('run', 'task', values.task));
  // The current folder, or the one a continued conversation (--store) ran in.
  const workspaceArg =
    nonEmpty('run', 'workspace', values.workspace) ??
    (values.store !== undefined ? readSessionInfo(resolvePath(io, values.store))?.workspace : undefined) ??
    '.';
  const agentMode = values.mode === undefined ? undefined : (values.mode as AgentMode);
  if (agentMode !== undefined && !isAgentMode(agentMode)) {
    throw new UsageError(`logbook run: --mode must be plan or act, got "${values.mode}".`);
  }
  // `--mode act` on a conversation in plan mode without a task approves its plan.
  // `--remote URL --store DIR` (or `--runtime-api URL --store DIR`) without a task resumes a remote conversation.
  const resumesRemote =
    (values.remote !== undefined || values['runtime-api'] !== undefined) && values.store !== undefined;
  if (task === undefined && !(agentMode === 'act' && values.store !== undefined) && !resumesRemote)
    throw new UsageError('logbook run: a task is required: logbook run "TEXT" (or --task TEXT).');
  const settings = cliSettings('run', io.env, { flags: values, warn: (line) => io.err(line) });
  let workspace = resolvePath(io, workspaceArg);
  if (!isDirectory(workspace))
    throw new UsageError(`logbook run: the workspace ${workspace} is not a directory.`);
  if (values['runtime-api'] !== undefined) {
    if (inWorktree)
      throw new UsageError('logbook run: --runtime-api runs on the cluster; it takes no --worktree.');
    const { runOnRuntime } = await import('../remote/remote-runs');
    return runOnRuntime(io, {
      values,
      task,
      workspace,
      settings,
      ...(values.store !== undefined ? { storeDir: resolvePath(io, values.store) } : {}),
    });
  }
  if (values.image !== undefined || values['runtime-timeout'] !== undefined || values['pause-runtime'])
    throw new UsageError(
      'logbook run: --image, --runtime-timeout and --pause-runtime go with --runtime-api.',
    );
  if (values.remote !== undefined) {
    if (inWorktree) throw new UsageError('logbook run: --remote runs on the server; it takes no --worktree.');
    const { runRemote } = await import('../remote/remote-runs');
    return runRemote(io, {
      values,
      task,
      workspace,
      settings,
      ...(values.store !== undefined ? { storeDir: resolvePath(io, values.store) } : {}),
    });
  }
  const prepared = prepareCliSession('run', io, settings);
  const agentName = nonEmpty('run', 'agent', values.agent);
  // Checked before anything starts: a name the user's acp.agents does not hold is a usage error.
  const agentCfg = agentName === undefined ? undefined : agentEntry(settings, agentName);

  // An existing --store continues that conversation (same workspace); otherwise a new one.
  const newId = randomUUID();
  // A worktree task works in its own worktree and keeps its log beside it, out of both trees.
  const setup = inWorktree ? await setupSteps(io, settings, workingTreeOf(workspace)) : [];
  const started = inWorktree
    ? startTask(io, settings, { from: workspace, task: task!, name: taskName, carry: values.carry === true })
    : undefined;
  if (started) workspace = started.worktree;
  const storeDir = values.store
    ? resolvePath(io, values.store)
    : (started?.log ?? join(workspace, '.logbook', 'conversations', newId));
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
  const mode = { json: values.json === true };
  const demo = settings.get<boolean>('demo');
  // The ACP stack (its SDK's schemas) loads only for a run with --agent: the editor's agent bundle.
  const acp = agentName !== undefined && agentCfg ? await import('../acp/agent-llm') : undefined;
  const external =
    acp && agentName !== undefined && agentCfg
      ? await acp.launchAgent({
          name: agentName,
          entry: agentCfg,
          sandbox: cliSandbox(settings, io.env),
          replyTimeoutSec: settings.get<number>('acp.replyTimeoutSeconds'),
          env: io.env,
          workspace,
          log: (line) => note(io, mode, line),
        })
      : undefined;
  const opening = openCliSession(prepared, {
    storeDir,
    workspace,
    id,
    mode,
    demo: demo && !external,
    ...(acp && external
      ? {
          llm: external.model,
          extraTools: [acp.agentPermissionTool(agentName!)],
          extraSecrets: external.secrets,
        }
      : {}),
    notes: () => {
      if (values.store === undefined && !started && excludeStoreFromGit(workspace) === 'added')
        note(
          io,
          mode,
          `added ${STORE_EXCLUDE_LINE} to the repository's .git/info/exclude (kept out of git status)`,
        );
    },
  });
  const opened = await opening.catch(async (err: unknown) => {
    await external?.close();
    throw err;
  });
  const { session, llmSettings } = opened;
  try {
    const { conversation } = session;
    if (external) {
      external.model.recorder = (r) => conversation.recordAgentUpdate(r.key, r.value);
      external.model.followShell({ watch: session.watchTerminal, interrupt: session.stopCommand });
    }
    if (conversation.status === 'waiting_for_confirmation') {
      throw new UsageError(
        `logbook run: the conversation in ${storeDir} waits for confirmation; use approve or reject first.`,
      );
    }
    // Conversation.run would execute them again unasked; their side effect may already have happened.
    // A delegated agent's actions in doubt count too: the parent's next run would resume it.
    const inDoubt = [
      ...conversation.state.inDoubt,
      ...childrenInDoubt((await agentsReport(storeDir)).children),
    ];
    if (inDoubt.length > 0) {
      throw new Error(
        `${inDoubt.length} action(s) of this conversation started before a crash and have no recorded ` +
          `result (${inDoubt.join(', ')}), and the CLI will not run them again unasked. Check the ` +
          `workspace (\`logbook show\` lists them), then decide: ${resolveHint(storeDir)}.`,
      );
    }
    const recorded = {
      confirmation: settings.get<ConfirmationMode>('confirmation.mode'),
      max_iterations: chosen(settings, 'maxIterations'),
      max_tool_calls_per_reply: chosen(settings, 'maxToolCallsPerReply'),
      model: external ? external.model.model : llmSettings.model,
      // Where approve, reject and resolve connect again: never the key, nor a URL's credentials.
      base_url: demo ? null : withoutUrlCredentials(llmSettings.baseUrl),
      demo,
      mcp_config: prepared.mcpConfigPath ?? null,
    };
    // A title the conversation has already is written now, not in a second write after the task.
    const title = conversation.state.title;
    const info = {
      ...(previous ?? newSessionInfo({ id, workspace, ...recorded })),
      ...recorded,
      ...(title ? { title } : {}),
    };
    writeSessionInfo(storeDir, info);
    // Out of the workspace's reach: what approve, reject and resolve trust for the guarding settings.
    keepRecord(io.env, storeDir, info, prepared.mcpConfigSha256);
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
      // What an editor's session list (`logbook acp`'s session/list) names it by.
      noteTitle(storeDir, conversation.state.title);
    }
    // After the task's message, so the model reads the setup's commands as answered calls of its turn.
    if (started) await runSetup(io, settings, llmSettings, started.worktree, setup, conversation);
    return await driveToStop(io, mode, session, storeDir, opened.children, inPlaceAt(io, values, workspace));
  } finally {
    await opened.close();
    await external?.close();
  }
}

/** A number the user chose (anywhere but the default), as session.json records it; else null. */
function chosen(settings: CliSettings, key: string): number | null {
  const entry = settings.resolved.get(key);
  return entry && entry.sources[0]?.kind !== 'default' ? (entry.value as number) : null;
}

/** The task as one argument (`logbook run "fix the tests"`) or --task, not both. */
function taskFrom(positionals: readonly string[], flag: string | undefined): string | undefined {
  if (positionals.length === 0) return flag;
  if (flag !== undefined)
    throw new UsageError('logbook run: give the task once, as an argument or with --task, not both.');
  if (positionals.length > 1) {
    const got = positionals.map((p) => JSON.stringify(p)).join(' ');
    throw new UsageError(`logbook run: the task is one argument; quote it: logbook run "..." (got ${got}).`);
  }
  return nonEmpty('run', 'task', positionals[0]);
}
