// "Review Task per Hunk": a task's change under the same inline review as the agent's own edits
// (the CodeLens Accept / Reject per hunk and per file, the gutter marks, the same commands and
// keybindings), with the task's base as each file's baseline and its worktree's file as the text.
// Before anything is shown, the task's uncommitted work is committed on its branch (as apply
// would), so that each rejection is a commit of its own on the branch, taking back exactly that
// hunk: apply, here or `logbook apply`, then brings exactly the accepted change.
import { join, relative } from 'node:path';
import * as vscode from 'vscode';
import { hasLiveWriter } from '../../../core/log';
import { type TaskRecord, taskOfReviewId, taskReviewId } from '../../../core/worktrees';
import { pathToUri } from '../ports/workspace-paths';
import type { ReviewController } from '../review/review-controller';
import { type EditorTasks, editorTasks, type TaskPlace, taskPlace } from './task-place';
import { taskChanges } from './task-review';
import { taskHunksTitle } from './task-titles';
import type { TaskChat } from './task-chat';
import { isRecording, recordFromEditor } from './task-decisions';

/** Why no decision on `task`'s review may be taken now, or undefined when one may. */
function refusal(task: TaskRecord): string | undefined {
  if (!vscode.workspace.isTrusted)
    return vscode.l10n.t(
      'This workspace is not trusted; trust it to review task {0} (a rejection commits on its branch, and git runs its hooks).',
      task.name,
    );
  if (task.status === 'discarded')
    return vscode.l10n.t('Task {0} was discarded; its branch is gone.', task.name);
  if (hasLiveWriter(task.log) && !isRecording(task.log))
    return vscode.l10n.t('Task {0} is running; wait until it has stopped.', task.name);
  return undefined;
}

/** A file's text, or undefined for one the review cannot show as text (binary, unreadable). */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export interface TaskHunkReview {
  /** The files put under review (relative to the worktree), and those left to the whole diff. */
  reviewed: string[];
  skipped: string[];
}

/** Puts a task's change under the inline review and opens it; refused on a running task. */
export async function reviewTaskHunks(
  review: ReviewController,
  name: string,
): Promise<TaskHunkReview | undefined> {
  const task = (await taskPlace()).store.get(name);
  const refused = refusal(task);
  if (refused) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Logbook: {0}', refused));
    return undefined;
  }
  const { commitPending, gitTry } = await editorTasks();
  commitPending(task, "the editor's review of the task");
  const id = taskReviewId(task.name);
  review.clear(id);
  const reviewed: string[] = [];
  const skipped: string[] = [];
  for (const change of await taskChanges(task)) {
    const path = join(task.worktree, change.path);
    const shown = change.added ? undefined : gitTry(task.worktree, ['show', `${task.base}:${change.path}`]);
    const before = shown && shown.code === 0 ? shown.stdout : undefined;
    let after: string | undefined;
    try {
      after = change.deleted
        ? undefined
        : textOf(Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(path))));
    } catch {
      after = undefined;
    }
    // A deleted, binary or unreadable file: its change is in Review Task Changes, not per hunk.
    if (after === undefined || (!change.added && before === undefined)) {
      skipped.push(change.path);
      continue;
    }
    review.recordEdit({ conversationId: id, actionId: id, path, before, after });
    reviewed.push(change.path);
  }
  if (skipped.length > 0)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Logbook: not reviewed per hunk (deleted or not text): {0}. Review Task Changes shows them.',
        skipped.join(', '),
      ),
    );
  await review.showChanges(id, taskHunksTitle(task.name));
  // A diff editor draws no CodeLens: the first file opens as itself too, its Accept / Reject shown.
  if (reviewed[0] !== undefined)
    await vscode.window.showTextDocument(pathToUri(join(task.worktree, reviewed[0])), { preview: false });
  return { reviewed, skipped };
}

/**
 * Ties the tasks' reviews to their branches: no decision while a task runs or in an untrusted
 * window, and each rejection committed on the task's branch before the reject command returns.
 * An acceptance changes nothing on the branch; the task's log records it, with the branch's commit
 * the accepted change is on.
 */
export function connectTaskReview(
  review: ReviewController,
  log: vscode.LogOutputChannel,
  place: TaskPlace,
  tasks: EditorTasks,
  chat: TaskChat,
): vscode.Disposable {
  const taskOf = (conversationId: string) => {
    const name = taskOfReviewId(conversationId);
    return name === undefined ? undefined : place.store.get(name);
  };
  return vscode.Disposable.from(
    review.guard((conversationId) => {
      const task = taskOf(conversationId);
      return task && refusal(task);
    }),
    review.onDidReject(({ conversationId, path, wholeFile }) => {
      try {
        const task = taskOf(conversationId);
        if (!task) return;
        const file = relative(task.worktree, path);
        const commit = tasks.commitRejection(task, file, wholeFile);
        void recordFromEditor(chat, log, task, [
          tasks.rejectDecision(task, 'editor', file, commit, wholeFile),
        ]);
        log.info(
          `Tasks: the review of ${task.name} rejected a change of ${path} (commit ${commit ?? 'none'})`,
        );
      } catch (err) {
        log.warn(`Tasks: a rejection was not committed: ${String(err)}`);
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Logbook: the rejection could not be committed on the task branch: {0}', String(err)),
        );
      }
    }),
    review.onDidAccept(({ conversationId, path, wholeFile, hunk }) => {
      const task = taskOf(conversationId);
      if (!task) return;
      const head = tasks.gitTry(task.worktree, ['rev-parse', '--verify', `${task.branch}^{commit}`]);
      const commit = head.code === 0 ? head.stdout.trim() : null;
      const file = relative(task.worktree, path);
      void recordFromEditor(chat, log, task, [
        tasks.acceptDecision(task, 'editor', file, commit, wholeFile, hunk),
      ]);
      log.info(`Tasks: the review of ${task.name} accepted a change of ${path}`);
    }),
  );
}
