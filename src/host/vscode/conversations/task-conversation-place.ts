// Where a worktree task's conversation lives and works: its log in the folder the CLI keeps that
// task's log in (so `logbook tasks`, `apply` and `discard` and the Tasks view read it), and the
// task's worktree as its only workspace folder (file edits, terminals, the sandbox, checkpoints).
import * as vscode from 'vscode';
import type { ConversationSession } from './conversation-session';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import { checkpointStoreFor, editorCheckpointsRoot } from '../checkpoints/checkpoints';
import { noteEditorCheckpoints } from '../../node/worktrees/task-checkpoint-stores';
import { TaskStepGuard } from '../../node/worktrees/task-steps';
import { windowLockHolder } from '../handoff/lock-holder';

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

/** The worktree's checkpoint store, made once per place. */
export function taskCheckpoints(place: TaskConversationPlace, root: string): WorkspaceCheckpointStore {
  if (!place.checkpoints) {
    // `logbook fork` at a terminal looks for the task's checkpoints where this note says.
    try {
      noteEditorCheckpoints(place.dir, editorCheckpointsRoot(root));
    } catch {
      // A log folder that cannot be written: the fork then looks where the CLI keeps checkpoints.
    }
  }
  return (place.checkpoints ??= checkpointStoreFor(root, [{ name: place.name, path: place.worktree }]));
}

/** What a task's session gets beyond a window conversation's: its worktree as the only root. */
export function taskSessionParts(place: TaskConversationPlace, root: string) {
  return {
    roots: [place.worktree],
    task: { name: place.name, branch: place.branch },
    checkpoints: taskCheckpoints(place, root),
    // Tells `logbook apply` and `discard` whether a step runs (they wait for none while it is held open).
    stepGuard: new TaskStepGuard(place.dir, windowLockHolder()),
  };
}

/** Closes the sessions of a task's log held here (their writer lock goes), unless a step of one runs. */
export async function closeTaskSessions(
  sessions: Map<string, ConversationSession>,
  dir: string,
): Promise<boolean> {
  for (const [id, s] of sessions) {
    if (s.dir !== dir) continue;
    if (s.busy) return false;
    sessions.delete(id);
    await s.dispose();
  }
  return true;
}

/**
 * The writable session of a task's log held here: its id, and whether it runs (a step in flight,
 * or a step it waits on a confirmation for). Undefined when another process writes the log.
 */
export function heldTaskSession(
  sessions: Map<string, ConversationSession>,
  dir: string,
): { id: string; running: boolean } | undefined {
  for (const [id, s] of sessions) {
    if (s.dir !== dir || s.readOnly) continue;
    const status = s.conversation.status;
    return { id, running: s.busy || status === 'running' || status === 'waiting_for_confirmation' };
  }
  return undefined;
}

/** A task's conversation is never deleted from the window: its log goes only with its task. */
export function refuseTaskDelete(place: TaskConversationPlace | undefined): void {
  if (!place) return;
  throw new Error(
    vscode.l10n.t(
      'This is the conversation of worktree task {0}: its log is kept with the task, and discarding the task keeps it too. It is not deleted here; review, apply or discard the task from the Tasks view.',
      place.name,
    ),
  );
}
