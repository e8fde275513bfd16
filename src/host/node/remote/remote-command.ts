// `logbook run --remote URL "task"`: checks what the remote run needs (the URL, the session key
// from LOGBOOK_REMOTE_KEY, the model Logbook is configured with), then runs it (remote-run.ts).
import type { ConfirmationMode } from '../../../core/agent/settings';
import { llmSettingsFrom } from '../../../core/settings';
import type { CliSettings } from '../cli/cli-settings';
import { UsageError } from '../cli/exit-codes';
import { inPlaceAt } from '../cli/ask-in-place';
import type { CliIo } from '../cli/io';
import { normalizeServerUrl, RemoteError } from './agent-server-api';
import { remoteRun } from './remote-run';

export const REMOTE_KEY_VARIABLE = 'LOGBOOK_REMOTE_KEY';

export interface RemoteCommandInput {
  values: { remote?: string; 'remote-dir'?: string; json?: boolean; 'no-input'?: boolean };
  task: string;
  workspace: string;
  settings: CliSettings;
}

export async function runRemote(io: CliIo, input: RemoteCommandInput): Promise<number> {
  const { values, settings } = input;
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
  const llm = llmSettingsFrom(settings.resolved);
  try {
    return await remoteRun(io, {
      target: { url, key },
      task: input.task,
      workspace: input.workspace,
      remoteDir: values['remote-dir'] ?? input.workspace,
      settings,
      model: { model: llm.model, baseUrl: llm.baseUrl, apiKey: llm.apiKey },
      confirmation: settings.get<ConfirmationMode>('confirmation.mode'),
      maxIterations: settings.get<number>('maxIterations'),
      askInPlace: inPlaceAt(io, values, input.workspace) !== undefined,
      json: values.json === true,
    });
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook run --remote: ${err.message}`);
    throw err;
  }
}
