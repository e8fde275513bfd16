// What every workspace checkpoint store offers (one folder's GitCheckpointStore, or a multi-root
// window's MultiFolderCheckpointStore) and the shapes of its answers. Apart from both stores so
// each can name it without importing the other.
import type {
  CheckpointChange,
  CheckpointPort,
  CheckpointRecord,
  CheckpointRequest,
} from '../../../core/checkpoints/types';

/** What the editor and the CLI do with a workspace's checkpoints. */
export interface WorkspaceCheckpointStore extends CheckpointPort {
  /** The workspace folder (the first one of a multi-root window). */
  readonly workspace: string;
  /** Where a path of a checkpoint's changes is on disk. */
  absolutePath(path: string): string;
  record(req: CheckpointRequest): Promise<CheckpointRecord>;
  plan(checkpoint: string): Promise<RestorePlan>;
  planFrom(state: string, checkpoint: string): Promise<RestorePlan>;
  restore(checkpoint: string, conversationId: string): Promise<RestoreResult>;
  fileAt(checkpoint: string, path: string): Promise<Buffer | undefined>;
  held(conversationId: string): Promise<string[]>;
  release(conversationId: string): Promise<void>;
  adopt(conversationId: string, checkpoint: string, after?: string): Promise<void>;
  changedBetween(
    pairs: readonly { from: string; to: string }[],
  ): Promise<{ paths: Set<string>; missing: string[] }>;
}

/** What a restore changes, before it is done. */
export interface RestorePlan {
  /** The workspace now, as a tree (not a checkpoint yet). */
  current: string;
  target: string;
  /** A: created, M: overwritten, D: deleted, T: replaced by another kind (file, link). */
  changes: CheckpointChange[];
}

export interface RestoreResult {
  /** The checkpoint of the files as they were before the restore: restore it to undo. */
  before: CheckpointRecord;
  changes: CheckpointChange[];
}

export const MULTI_PREFIX = 'multi:';

/** Whether a checkpoint id is a multi-root window's (the CLI, run in one folder, cannot restore it). */
export function isMultiFolderCheckpoint(id: string): boolean {
  return id.startsWith(MULTI_PREFIX);
}
