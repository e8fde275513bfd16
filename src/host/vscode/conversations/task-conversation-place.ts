// Where a worktree task's conversation lives and works: its log in the folder the CLI keeps that
// task's log in (so `logbook tasks`, `apply` and `discard` and the Tasks view read it), and the
// task's worktree as its only workspace folder (file edits, terminals, the sandbox, checkpoints).
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';

export interface TaskConversationPlace {
  /** The task's name (its branch is `logbook/<name>`). */
  name: string;
  branch: string;
  worktree: string;
  /** The conversation's log folder (the task record's `log`). */
  dir: string;
  /** The worktree's checkpoint store, made on first use. */
  checkpoints?: WorkspaceCheckpointStore;
}
