// Where the window's worktree tasks are: the repository of its first folder, under the root the
// CLI uses (worktrees.dir from the CLI's config file or LOGBOOK_WORKTREES_DIR), so the editor and
// `logbook tasks` list the same tasks. Only the lazy task-commands bundle imports this module.
import * as vscode from 'vscode';
import * as EditorTasksModule from '../../node/worktrees/editor-tasks';
import type { TaskPlace } from '../../node/worktrees/editor-tasks';

export type { TaskPlace };

export type EditorTasks = typeof EditorTasksModule;

export function editorTasks(): Promise<EditorTasks> {
  return Promise.resolve(EditorTasksModule);
}

/** The window's task store; an error says why there is none (no folder, not a repository). */
export async function taskPlace(): Promise<TaskPlace> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error(vscode.l10n.t('Open a folder in a git repository to run tasks in worktrees.'));
  return (await editorTasks()).taskPlaceOf(folder, process.env);
}
