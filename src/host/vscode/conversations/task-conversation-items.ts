// Worktree tasks' conversations in the Conversations view, beside the window's own: their logs live
// with the tasks (the window's index does not hold them), so the rows are read from the task store
// (the lazy task commands, loaded only when the window's folder is in a git repository). A row is
// marked as a task (a branch icon, the task's name) and opens as the Tasks view's row opens it: the same
// session in the chat. Rename, Delete and Replay are not offered on it: a task's log goes only with
// its task, and `logbook discard` keeps it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { formatCost } from '../../../core/format/counts';
import { INTERRUPTED_REASON } from '../../../core/state/interrupted';
import { printableLine } from '../../../core/text/printable';
import type { TaskConversationRow } from '../tasks/task-conversation-rows';
import type { TaskConversationPlace } from './task-conversation-place';
import { taskConversationRow, usableLocale } from './conversation-row';

export interface TaskConversationNode extends TaskConversationRow {
  kind: 'task-conversation';
  /** The conversation's id (commands on the row read it, as on a window conversation's row). */
  id: string;
}

const tasks = () => import('../tasks/task-commands');

/** Whether `folder` is in a git repository: only then can it have worktree tasks. */
function inRepository(folder: string): boolean {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** The conversations of the window's repository's tasks; none outside a repository. */
export async function taskConversationNodes(): Promise<TaskConversationNode[]> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder || !inRepository(folder)) return [];
  const rows = await (await tasks()).taskConversationRows();
  return rows.map((r) => ({ ...r, kind: 'task-conversation' as const, id: r.entry.id }));
}

/** Where task `name`'s conversation `id` lives, read from the task store (after a reload). */
export async function findTaskConversation(
  name: string,
  id: string,
): Promise<TaskConversationPlace | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder || !inRepository(folder)) return undefined;
  return (await tasks()).taskConversationPlace(name, id);
}

export const isTaskConversation = (n: object): n is TaskConversationNode =>
  'kind' in n && n.kind === 'task-conversation';

/** Statuses of a task that its conversation's own status does not say. */
const TASK_ONLY = new Set(['applied', 'discarded', 'missing', 'crashed']);

/** The status the row's label says: the task's own when its conversation's does not say it. */
function rowStatus(n: TaskConversationNode): string {
  // A task whose process is gone mid-run reads as a window's interrupted conversation does.
  if (n.status === 'crashed') return n.entry.status === 'running' ? 'paused' : n.entry.status;
  return TASK_ONLY.has(n.status) ? n.status : n.entry.status;
}

export function taskConversationItem(n: TaskConversationNode, activeId: string | undefined): vscode.TreeItem {
  const { entry, place } = n;
  const crashed = n.status === 'crashed';
  const title = entry.title ? printableLine(entry.title) : '';
  // At 300 px a label is cut after about 35 characters, and a task's name can fill them: the name
  // alone is the label, as in the Tasks view; its status (the task's own when the conversation's
  // does not say it: applied, discarded), its time and the task's words follow as the description.
  const row = taskConversationRow(
    {
      name: place.name,
      title,
      updated: entry.updated ?? undefined,
      status: rowStatus(n),
      interrupted: crashed ? INTERRUPTED_REASON : undefined,
    },
    new Date(),
    { l10n: vscode.l10n, locale: vscode.env.language },
  );
  const item = new vscode.TreeItem(row.label);
  item.id = n.id;
  item.description = row.description;
  const events =
    entry.eventCount === 1
      ? vscode.l10n.t('1 event')
      : vscode.l10n.t('{0} events', entry.eventCount.toLocaleString(usableLocale(vscode.env.language)));
  item.tooltip = new vscode.MarkdownString().appendText(
    [
      title,
      vscode.l10n.t('Worktree task {0}: {1}', place.name, n.status) +
        (n.waitingForYou ? ` (${vscode.l10n.t('waits for you')})` : ''),
      vscode.l10n.t('Branch: {0}', place.branch),
      vscode.l10n.t('Worktree: {0}', place.worktree),
      `${row.status} · ${events} · ${formatCost(entry.cost)}`,
      vscode.l10n.t(
        'Its log is kept with the task (discarding the task keeps it too), so it is not renamed or deleted here. Review, apply or discard the task from the Tasks view.',
      ),
    ].join('\n\n'),
  );
  item.iconPath = new vscode.ThemeIcon(
    'git-branch',
    entry.status === 'waiting_for_confirmation'
      ? new vscode.ThemeColor('notificationsWarningIcon.foreground')
      : undefined,
  );
  // The Tasks view's own command: the same session of the task's conversation, in the chat.
  item.command = {
    command: 'logbook.tasks.openConversation',
    title: vscode.l10n.t('Open Task Conversation'),
    arguments: [place.name],
  };
  item.contextValue = n.id === activeId ? 'conversation.task.active' : 'conversation.task';
  return item;
}
