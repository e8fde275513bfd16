// The titles of a task's multi-file diffs under the inline review: the tab names the task (VS Code
// adds the count of files), as Review Task Changes' does, so several tasks' reviews and the
// window's own "Agent Changes" are told apart at a glance. Imported by the main bundle (the chat's
// Review Changes of a task's conversation) and the lazy task commands alike.
import * as vscode from 'vscode';

/** Review Task per Hunk: the same files under the inline review. */
export const taskHunksTitle = (name: string): string => vscode.l10n.t('Task {0}: review per hunk', name);

/** Review Changes of a task's conversation (what its agent edited, reviewed inline); else the default. */
export const agentChangesTitleOf = (task: { name: string } | undefined): string | undefined =>
  task && vscode.l10n.t("Task {0}: the agent's changes", task.name);
