// The titles of a task's multi-file diffs: the tab names the task, so several tasks' reviews (and
// the window's own "Agent Changes") are told apart at a glance. Imported by the main bundle (the
// chat's Review Changes of a task's conversation) and the lazy task commands alike.
import * as vscode from 'vscode';

/** Review Task Changes: the task's whole change against its base. */
export const taskChangesTitle = (name: string, files: number): string =>
  vscode.l10n.t('Task {0}: {1} file(s)', name, String(files));

/** Review Task per Hunk: the same files under the inline review. */
export const taskHunksTitle = (name: string, files: number): string =>
  vscode.l10n.t('Task {0}: {1} file(s), per hunk', name, String(files));

/** Review Changes of a task's conversation: what its agent edited, reviewed inline. */
export const taskAgentChangesTitle = (name: string, files: number): string =>
  vscode.l10n.t("Task {0}: the agent's changes to {1} file(s)", name, String(files));

/** The title of a conversation's Review Changes: a task's names it; the default otherwise. */
export const agentChangesTitleOf = (
  task: { name: string } | undefined,
): ((files: number) => string) | undefined => task && ((files) => taskAgentChangesTitle(task.name, files));
