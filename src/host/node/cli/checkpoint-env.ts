// Where the CLI keeps workspace checkpoints and how, from the settings `checkpoints.*` (config
// file, then LOGBOOK_CHECKPOINTS, LOGBOOK_CHECKPOINTS_DIR, LOGBOOK_CHECKPOINTS_EXCLUDE,
// LOGBOOK_CHECKPOINTS_MAX_FILE_MB, LOGBOOK_CHECKPOINTS_MAX_FILES, then --no-checkpoints). One store
// per workspace under the root, by default $XDG_STATE_HOME/logbook/checkpoints
// (~/.local/state/logbook/checkpoints).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../checkpoints/git-checkpoint-store';
import type { CliSettings } from './cli-settings';

type Env = Readonly<Record<string, string | undefined>>;

export function checkpointsRoot(settings: CliSettings, env: Env): string {
  const dir = settings.get<string | null>('checkpoints.dir')?.trim();
  if (dir) return dir;
  const state = env.XDG_STATE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.local', 'state');
  return join(state, 'logbook', 'checkpoints');
}

/** The workspace's checkpoint store as the settings set it (whether or not they turn it off). */
export function checkpointStore(workspace: string, settings: CliSettings, env: Env): GitCheckpointStore {
  return new GitCheckpointStore({
    workspace,
    storeDir: storeDirFor(checkpointsRoot(settings, env), workspace),
    exclude: settings.get<string[]>('checkpoints.exclude'),
    limits: {
      maxFileBytes: Math.round(settings.get<number>('checkpoints.maxFileSizeMB') * 1024 * 1024),
      maxFiles: settings.get<number>('checkpoints.maxFiles'),
    },
  });
}

/** The store the agent records into, or undefined when checkpoints are off. */
export function agentCheckpoints(
  workspace: string,
  settings: CliSettings,
  env: Env,
): GitCheckpointStore | undefined {
  if (!settings.get<boolean>('checkpoints.enabled')) return undefined;
  return checkpointStore(workspace, settings, env);
}
