// `logbook run --remote URL "task"`: checks what the remote run needs (the URL, the session key
// from LOGBOOK_REMOTE_KEY, the model Logbook is configured with), then runs it (remote-run.ts).
import type { ConfirmationMode } from '../../../core/agent/settings';
import { isAgentMode } from '../../../core/agent/plan-mode';
import { llmSettingsFrom } from '../../../core/settings';
import type { CliSettings } from '../cli/cli-settings';
import { UsageError } from '../cli/exit-codes';
import { inPlaceAt } from '../cli/ask-in-place';
import type { CliIo } from '../cli/io';
import { type AgentServerTarget, normalizeServerUrl, RemoteError } from './agent-server-api';
import { remoteRun } from './remote-run';
import { REMOTE_KEY_VARIABLE, resumeRemote, sendTaskRemote } from './remote-decide';
import { readRemoteOrigin } from './remote-risk';
import { remoteGate } from './remote-gate';
import type { RuntimeOrigin } from './remote-origin';

export { REMOTE_KEY_VARIABLE };

export interface RemoteCommandInput {
  values: {
    remote?: string;
    'remote-dir'?: string;
    json?: boolean;
    'no-input'?: boolean;
    /** plan or act (checked by run). */
    mode?: string;
  };
  task: string | undefined;
  /** The folder of a remote conversation to resume (`--store`). */
  storeDir?: string;
  workspace: string;
  settings: CliSettings;
}

export async function runRemote(io: CliIo, input: RemoteCommandInput): Promise<number> {
  const { values } = input;
  let url: string;
  try {
    url = normalizeServerUrl(values.remote ?? '');
  } catch (err) {
    throw new UsageError(`logbook run --remote: ${(err as Error).message}`);
  }
  const key = io.env[REMOTE_KEY_VARIABLE];
  if (!key) {
    throw new UsageError(
      `logbook run --remote: set ${REMOTE_KEY_VARIABLE} to the agent-server's session API key.`,
    );
  }
  if (input.storeDir !== undefined) return continueRemote(io, input, url);
  if (input.task === undefined) throw new UsageError('logbook run --remote: a task is required.');
  return runTaskOn(io, input, input.task, { target: { url, key } });
}

/** A new conversation on the task, on the server `target` names (also a runtime API's). */
export async function runTaskOn(
  io: CliIo,
  input: RemoteCommandInput,
  task: string,
  where: { target: { url: string; key: string }; runtime?: RuntimeOrigin },
  flag = '--remote',
): Promise<number> {
  const { values, settings } = input;
  const llm = llmSettingsFrom(settings.resolved);
  const remoteDir = values['remote-dir'] ?? input.workspace;
  try {
    return await remoteRun(io, {
      ...where,
      task,
      workspace: input.workspace,
      remoteDir,
      settings,
      model: { model: llm.model, baseUrl: llm.baseUrl, apiKey: llm.apiKey },
      confirmation: settings.get<ConfirmationMode>('confirmation.mode'),
      gate: remoteGate(settings, values.mode === 'plan' ? 'plan' : 'act', remoteDir),
      maxIterations: settings.get<number>('maxIterations'),
      askInPlace: inPlaceAt(io, values, input.workspace) !== undefined,
      json: values.json === true,
    });
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook run ${flag}: ${err.message}`);
    throw err;
  }
}

/**
 * `--store DIR`: the conversation in DIR, which ran on this server, runs on from where it stopped,
 * or, with a task, on that task as its next message.
 */
export function continueRemote(
  io: CliIo,
  input: RemoteCommandInput,
  url: string,
  /** The server and its key, found through the runtime API that started it. */
  target?: AgentServerTarget,
): Promise<number> {
  const dir = input.storeDir!;
  const origin = readRemoteOrigin(dir);
  if (!origin)
    throw new UsageError(`logbook run --remote: ${dir} holds no remote conversation (no remote.json).`);
  if (origin.server !== url)
    throw new UsageError(
      `logbook run --remote: the conversation in ${dir} runs on ${origin.server}, not ${url}.`,
    );
  if (input.task !== undefined && !input.task.trim())
    throw new UsageError('logbook run --remote --store: the task is empty.');
  if (input.values['remote-dir'] !== undefined && input.values['remote-dir'] !== origin.working_dir)
    throw new UsageError(
      `logbook run --remote: the conversation works in ${origin.working_dir} on the server.`,
    );
  const folder = {
    dir,
    origin,
    settings: input.settings,
    askInPlace: inPlaceAt(io, input.values, input.workspace) !== undefined,
    json: input.values.json === true,
    ...(isAgentMode(input.values.mode) ? { mode: input.values.mode } : {}),
    ...(target ? { target } : {}),
  };
  return input.task === undefined
    ? resumeRemote(io, folder)
    : sendTaskRemote(io, { ...folder, task: input.task });
}
