// Workspace checkpoints: the state of the workspace's files recorded before an action that can
// change them, so the files can go back to any point of a conversation. The core only knows this
// port and the event value; hosts implement the store (src/host/node/checkpoints: git plumbing).

/** The key of the ConversationStateUpdateEvent that records a checkpoint. */
export const CHECKPOINT_KEY = 'checkpoint';

/** How one path differs from the previous checkpoint. */
export interface CheckpointChange {
  /** A added, M modified (content or mode), D deleted, R renamed (from `from`), T type changed. */
  status: 'A' | 'M' | 'D' | 'R' | 'T';
  path: string;
  from?: string;
}

/** What a restore does to a file of each change status, as the preview says it. */
export const RESTORE_VERB: Record<CheckpointChange['status'], string> = {
  A: 'create',
  M: 'overwrite',
  T: 'replace',
  D: 'delete',
  R: 'rename',
};

/** A file left out of the checkpoint because it is larger than the size cap. */
export interface SkippedFile {
  path: string;
  size: number;
}

/** What the store recorded: enough to restore, and to tell the user what it holds. */
export interface CheckpointRecord {
  /** The store's id of the checkpoint (a git commit id). */
  id: string;
  /**
   * Files whose state differs from the conversation's previous checkpoint (the first: every file);
   * for an after-state, from the checkpoint taken before its action (what the action changed).
   */
  filesChanged: number;
  /** The first changes, at most CHANGES_SHOWN of them. */
  changes: CheckpointChange[];
  /** Files over the size cap, left as they are by a restore. */
  skipped: SkippedFile[];
  /** Files the checkpoint holds. */
  files: number;
  ms: number;
}

/** At most this many changes are kept in the event; `files_changed` counts them all. */
export const CHANGES_SHOWN = 50;

/**
 * Why a checkpoint was taken: before an action, before a restore, or after an action finished (the
 * `checkpoint_after` event: what the action left, so later changes by anyone else can be told apart).
 */
export type CheckpointReason = 'action' | 'restore' | 'after';

/**
 * The key of the ConversationStateUpdateEvent that records the files right after a file-changing
 * action finished. A key of its own, not a `checkpoint` with another reason: it is no restore target,
 * and readers that predate it (lists, "restore to here") leave it alone.
 */
export const CHECKPOINT_AFTER_KEY = 'checkpoint_after';

/** The value of a checkpoint event (snake_case, like the rest of the wire format). */
export interface CheckpointEventValue {
  checkpoint: string;
  reason: CheckpointReason;
  /** The action about to run (reason 'action'), or that just finished (reason 'after'). */
  action_id?: string;
  /** The event whose checkpoint was restored (reason 'restore'): this one holds the files before. */
  restored_to?: string;
  files: number;
  files_changed: number;
  changes: CheckpointChange[];
  skipped: SkippedFile[];
}

export interface CheckpointRequest {
  conversationId: string;
  reason: CheckpointReason;
  actionId?: string;
}

/**
 * Records the workspace. Fails with CheckpointUnavailableError when it cannot (too large, no git):
 * the caller tells the user once and goes on without checkpoints.
 */
export interface CheckpointPort {
  /** null: checkpoints are turned off (the setting), so nothing is recorded. */
  record(req: CheckpointRequest): Promise<CheckpointRecord | null>;
  /**
   * What a checkpoint taken now would hold, for judging whether an action can be undone. null:
   * checkpoints are off or cannot be taken here, so nothing the agent changes can be undone by them.
   * Absent: the store cannot tell (the caller treats it as null).
   */
  coverage?(): Promise<CheckpointCoverage | null>;
}

/** Why a path that exists is not held by the checkpoints. */
export type UnheldReason = 'ignored' | 'excluded' | 'too-large' | 'over-budget';

export interface UnheldPath {
  /** Absolute. A folder ends with '/' and stands for everything under it. */
  path: string;
  why: UnheldReason;
}

/** The workspace as the checkpoints hold it: everything under `roots` but `unheld`. */
export interface CheckpointCoverage {
  /** The workspace folders a checkpoint records (absolute). */
  roots: readonly string[];
  /** Paths that exist under the roots and no checkpoint would hold. */
  unheld: readonly UnheldPath[];
  /** The newest checkpoint taken, to name in "undo with checkpoint X". */
  latest?: string;
}

/** The workspace cannot be checkpointed; `message` says why and what the user can do. */
export class CheckpointUnavailableError extends Error {
  override name = 'CheckpointUnavailableError';
}

/** The store does not hold that checkpoint (released, or recorded in another store). */
export class CheckpointNotHeldError extends Error {
  override name = 'CheckpointNotHeldError';
}

/**
 * A restore that stopped part way: `before` is the checkpoint of the files as they were just
 * before it (recorded first), so restoring that one puts them back.
 */
export class RestoreFailedError extends Error {
  override name = 'RestoreFailedError';
  constructor(
    message: string,
    readonly before: CheckpointRecord,
  ) {
    super(message);
  }
}

/** The key of the one notice a conversation gets when its workspace cannot be checkpointed. */
export const CHECKPOINT_UNAVAILABLE_KEY = 'checkpoint_unavailable';

export function checkpointEventValue(
  rec: CheckpointRecord,
  req: Omit<CheckpointRequest, 'conversationId'> & { restoredTo?: string },
): CheckpointEventValue {
  return {
    checkpoint: rec.id,
    reason: req.reason,
    ...(req.actionId ? { action_id: req.actionId } : {}),
    ...(req.restoredTo ? { restored_to: req.restoredTo } : {}),
    files: rec.files,
    files_changed: rec.filesChanged,
    changes: rec.changes.slice(0, CHANGES_SHOWN),
    skipped: rec.skipped,
  };
}
