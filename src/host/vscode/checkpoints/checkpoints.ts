// Workspace checkpoints in the editor: the settings, and the store of the workspace under the
// extension's workspace storage (beside the conversations), shared by its conversations.
import { dirname, join } from 'node:path';
import type { CheckpointPort } from '../../../core/checkpoints/types';
import { GitCheckpointStore, storeDirFor } from '../../node/checkpoints/git-checkpoint-store';
import {
  MultiFolderCheckpointStore,
  type WorkspaceCheckpointStore,
} from '../../node/checkpoints/workspace-store';
import { editorList, editorSetting } from '../settings/config';

export interface CheckpointSettings {
  enabled: boolean;
  exclude: string[];
  maxFileBytes: number;
}

export function readCheckpointSettings(): CheckpointSettings {
  return {
    enabled: editorSetting<boolean>('checkpoints.enabled'),
    exclude: editorList('checkpoints.exclude'),
    maxFileBytes: Math.round(editorSetting<number>('checkpoints.maxFileSizeMB') * 1024 * 1024),
  };
}

/** Where the window keeps the checkpoint stores: beside the conversations in its storage folder. */
export function editorCheckpointsRoot(conversationsRoot: string): string {
  return join(dirname(conversationsRoot), 'checkpoints');
}

/** The window's store of one folder (what a task's worktree, or the window's only folder, records into). */
export function editorStoreDir(conversationsRoot: string, workspace: string): string {
  return storeDirFor(editorCheckpointsRoot(conversationsRoot), workspace);
}

/**
 * The store of the window's folders, under the storage folder that holds `conversationsRoot`: one
 * git store per folder (named by its path, so a folder keeps its checkpoints when the window gains
 * or loses another), together when there are several.
 */
export function checkpointStoreFor(
  conversationsRoot: string,
  folders: readonly { name: string; path: string }[],
): WorkspaceCheckpointStore {
  const s = readCheckpointSettings();
  const storeOf = (workspace: string) =>
    new GitCheckpointStore({
      workspace,
      storeDir: editorStoreDir(conversationsRoot, workspace),
      exclude: () => readCheckpointSettings().exclude,
      limits: { maxFileBytes: s.maxFileBytes },
    });
  if (folders.length === 1) return storeOf(folders[0]!.path);
  return new MultiFolderCheckpointStore(folders.map((f) => ({ name: f.name, store: storeOf(f.path) })));
}

/** What the conversation records through: nothing while `logbook.checkpoints.enabled` is off. */
export function settingAwarePort(store: WorkspaceCheckpointStore): CheckpointPort {
  return {
    record: (req) => (readCheckpointSettings().enabled ? store.record(req) : Promise.resolve(null)),
    // What a checkpoint would hold, for the default mode's "contained" verdict: nothing while off.
    coverage: () =>
      readCheckpointSettings().enabled
        ? (store.coverage?.() ?? Promise.resolve(null))
        : Promise.resolve(null),
  };
}
