// "Review Changes" of a task: its whole change against its base commit, committed on its branch
// or still uncommitted in its worktree, in one multi-file diff (VS Code's `vscode.changes`). The
// base side is read from git by a read-only document provider, never written anywhere.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TaskRecord } from '../../../core/worktrees';
import { editorTasks } from './task-place';

import { TASK_BASE_SCHEME } from './task-scheme';

/** A file as it was at the task's base commit: logbook-task-base:/<path>?<repo>#<commit>. */
function baseUri(task: TaskRecord, path: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: TASK_BASE_SCHEME,
    path: `/${path}`,
    query: task.worktree,
    fragment: task.base,
  });
}

interface Changed {
  path: string;
  added: boolean;
  deleted: boolean;
}

/** The files the task changed against its base: tracked (diff) and new untracked ones. */
export async function taskChanges(task: TaskRecord): Promise<Changed[]> {
  const { gitTry, lines } = await editorTasks();
  const diff = gitTry(task.worktree, ['diff', '--name-status', '--no-renames', task.base]);
  if (diff.code !== 0) throw new Error(diff.stderr.trim() || `git diff failed in ${task.worktree}`);
  const out: Changed[] = lines(diff.stdout).map((l) => {
    const [status, ...path] = l.split('\t');
    return { path: path.join('\t'), added: status === 'A', deleted: status === 'D' };
  });
  const untracked = gitTry(task.worktree, ['ls-files', '--others', '--exclude-standard']);
  for (const path of lines(untracked.stdout)) out.push({ path, added: true, deleted: false });
  return out;
}

export async function reviewTask(task: TaskRecord): Promise<number> {
  const changes = await taskChanges(task);
  if (changes.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Logbook: task {0} changed nothing against its base.', task.name),
    );
    return 0;
  }
  const resources = changes.map((c) => {
    const file = vscode.Uri.file(join(task.worktree, c.path));
    return [file, c.added ? undefined : baseUri(task, c.path), c.deleted ? undefined : file];
  });
  await vscode.commands.executeCommand(
    'vscode.changes',
    vscode.l10n.t('Task {0} ({1})', task.name, task.branch),
    resources,
  );
  return changes.length;
}
