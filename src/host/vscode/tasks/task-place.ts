// Where the window's worktree tasks are: the repository of its first folder, under the root the
// CLI uses (worktrees.dir from the CLI's config file or LOGBOOK_WORKTREES_DIR), so the editor and
// `logbook tasks` list the same tasks.
import * as vscode from 'vscode';
import { cliSettings } from '../../node/cli/cli-settings';
import { repositoryAt, TaskStore, worktreesRoot } from '../../node/worktrees/task-store';
import { git } from '../../node/worktrees/git-run';

export interface TaskPlace {
  store: TaskStore;
  /** The root of every repository's tasks (passed on to the CLI a task runs in). */
  root: string;
  /** The working tree of the window's folder: where a task starts from and is applied to. */
  workingTree: string;
}

/** The window's task store; an error says why there is none (no folder, not a repository). */
export function taskPlace(): TaskPlace {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error(vscode.l10n.t('Open a folder in a git repository to run tasks in worktrees.'));
  const configured = cliSettings('tasks', process.env).get<string | null>('worktrees.dir');
  const root = worktreesRoot(configured, process.env);
  const store = new TaskStore(root, repositoryAt(folder));
  return { store, root, workingTree: git(folder, ['rev-parse', '--show-toplevel']).trim() };
}
