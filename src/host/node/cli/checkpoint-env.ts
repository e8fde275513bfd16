// Where the CLI keeps workspace checkpoints and how they are set (a flag wins over the environment):
//   LOGBOOK_CHECKPOINTS=off             no checkpoints (like --no-checkpoints)
//   LOGBOOK_CHECKPOINTS_DIR=DIR         the stores' root (default $XDG_STATE_HOME/logbook/checkpoints,
//                                       ~/.local/state/logbook/checkpoints), one store per workspace
//   LOGBOOK_CHECKPOINTS_EXCLUDE=a,b     gitignore patterns left out besides .gitignore
//   LOGBOOK_CHECKPOINTS_MAX_FILE_MB=N   files larger than this are skipped (default 5)
//   LOGBOOK_CHECKPOINTS_MAX_FILES=N     a workspace with more files is not checkpointed (default 100000)
import { homedir } from 'node:os';
import { join } from 'node:path';
import { GitCheckpointStore, storeDirFor } from '../checkpoints/git-checkpoint-store';
import { UsageError } from './exit-codes';

type Env = Readonly<Record<string, string | undefined>>;

export const CHECKPOINTS_ENV = 'LOGBOOK_CHECKPOINTS';

export function checkpointsRoot(env: Env): string {
  const dir = env.LOGBOOK_CHECKPOINTS_DIR?.trim();
  if (dir) return dir;
  const state = env.XDG_STATE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.local', 'state');
  return join(state, 'logbook', 'checkpoints');
}

export function checkpointsEnabled(env: Env): boolean {
  const v = env[CHECKPOINTS_ENV]?.trim().toLowerCase();
  return !(v === 'off' || v === '0' || v === 'false' || v === 'no');
}

/** The workspace's checkpoint store as the environment sets it (whether or not it is turned off). */
export function checkpointStore(command: string, workspace: string, env: Env): GitCheckpointStore {
  const exclude = (env.LOGBOOK_CHECKPOINTS_EXCLUDE ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const rawMb = env.LOGBOOK_CHECKPOINTS_MAX_FILE_MB?.trim();
  const mb = rawMb ? Number(rawMb) : 5;
  if (!Number.isFinite(mb) || mb <= 0) {
    throw new UsageError(
      `logbook ${command}: LOGBOOK_CHECKPOINTS_MAX_FILE_MB must be a number above 0, got "${rawMb}".`,
    );
  }
  const rawFiles = env.LOGBOOK_CHECKPOINTS_MAX_FILES?.trim();
  const maxFiles = rawFiles ? Number(rawFiles) : undefined;
  if (maxFiles !== undefined && !(Number.isInteger(maxFiles) && maxFiles > 0)) {
    throw new UsageError(
      `logbook ${command}: LOGBOOK_CHECKPOINTS_MAX_FILES must be a positive integer, got "${rawFiles}".`,
    );
  }
  return new GitCheckpointStore({
    workspace,
    storeDir: storeDirFor(checkpointsRoot(env), workspace),
    exclude,
    limits: { maxFileBytes: Math.round(mb * 1024 * 1024), ...(maxFiles ? { maxFiles } : {}) },
  });
}

/** The store the agent records into, or undefined when checkpoints are off (flag or environment). */
export function agentCheckpoints(
  command: string,
  workspace: string,
  env: Env,
  noCheckpointsFlag = false,
): GitCheckpointStore | undefined {
  if (noCheckpointsFlag || !checkpointsEnabled(env)) return undefined;
  return checkpointStore(command, workspace, env);
}
