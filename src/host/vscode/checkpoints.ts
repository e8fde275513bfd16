// Workspace checkpoints in the editor: the settings, and the store of the workspace under the
// extension's workspace storage (beside the conversations), shared by its conversations.
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointPort } from '../../core/checkpoints/types';
import { GitCheckpointStore, storeDirFor } from '../node/checkpoints/git-checkpoint-store';

export interface CheckpointSettings {
  enabled: boolean;
  exclude: string[];
  maxFileBytes: number;
}

export function readCheckpointSettings(): CheckpointSettings {
  const c = vscode.workspace.getConfiguration('logbook.checkpoints');
  const exclude = c.get<unknown>('exclude', []);
  const mb = c.get<unknown>('maxFileSizeMB', 5);
  return {
    enabled: c.get<boolean>('enabled', true) !== false,
    exclude: Array.isArray(exclude)
      ? exclude.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      : [],
    maxFileBytes: typeof mb === 'number' && mb > 0 ? Math.round(mb * 1024 * 1024) : 5 * 1024 * 1024,
  };
}

/** The store of `workspace`, under the storage folder that holds `conversationsRoot`. */
export function checkpointStoreFor(conversationsRoot: string, workspace: string): GitCheckpointStore {
  const s = readCheckpointSettings();
  return new GitCheckpointStore({
    workspace,
    storeDir: storeDirFor(join(dirname(conversationsRoot), 'checkpoints'), workspace),
    exclude: () => readCheckpointSettings().exclude,
    limits: { maxFileBytes: s.maxFileBytes },
  });
}

/** What the conversation records through: nothing while `logbook.checkpoints.enabled` is off. */
export function settingAwarePort(store: GitCheckpointStore): CheckpointPort {
  return {
    record: (req) => (readCheckpointSettings().enabled ? store.record(req) : Promise.resolve(null)),
  };
}
