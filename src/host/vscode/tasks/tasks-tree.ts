// The "Tasks" view: the worktree tasks of the window's repository, as `logbook tasks` reads them
// (status, branch, files changed, cost, a mark when one waits for you). Rows carry their lifecycle
// in contextValue, so the menus offer only what fits (no apply of a discarded task).
import * as vscode from 'vscode';
import type { TaskFactsReport } from '../../node/worktrees/task-facts';
import type { TaskRecord } from '../../../core/worktrees';
import { formatCost } from '../../../core/format/counts';
import { printableLine } from '../../../core/text/printable';
import { editorTasks, taskPlace } from './task-place';
import { LIVE_STATUSES } from './task-halt';

export interface TaskNode {
  record: TaskRecord;
  facts: TaskFactsReport;
}

const STATUS_ICONS: Record<string, string> = {
  starting: 'loading~spin',
  'setting up': 'loading~spin',
  running: 'loading~spin',
  waiting: 'bell-dot',
  finished: 'check',
  failed: 'error',
  crashed: 'warning',
  missing: 'question',
  applied: 'git-merge',
  discarded: 'trash',
};

export class TasksTree implements vscode.TreeDataProvider<TaskNode | string> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  /** `runsHere`: whether this window runs the task whose log is `dir` (its row offers Pause and Stop). */
  constructor(private readonly runsHere: (dir: string) => boolean = () => false) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: TaskNode | string): Promise<(TaskNode | string)[]> {
    if (node) return [];
    let place;
    try {
      place = await taskPlace();
    } catch (err) {
      return [(err as Error).message];
    }
    const { factsOf } = await editorTasks();
    const records = place.store.list().reverse(); // newest first
    return Promise.all(records.map(async (record) => ({ record, facts: await factsOf(record) })));
  }

  getTreeItem(node: TaskNode | string): vscode.TreeItem {
    if (typeof node === 'string') return new vscode.TreeItem(printableLine(node));
    const { record, facts } = node;
    const item = new vscode.TreeItem(`${facts.waiting_for_you ? '● ' : ''}${record.name}`);
    const files =
      facts.files_changed === null ? '' : vscode.l10n.t('{0} file(s)', String(facts.files_changed));
    const cost = facts.cost === null ? '' : formatCost(facts.cost);
    item.description = [facts.status, files, cost].filter((s) => s !== '').join(' · ');
    item.tooltip = new vscode.MarkdownString().appendText(
      [
        printableLine(record.task),
        vscode.l10n.t('Status: {0}', facts.status) +
          (facts.waiting_for_you ? ` (${vscode.l10n.t('waits for you')})` : ''),
        vscode.l10n.t('Branch: {0}', record.branch),
        vscode.l10n.t('Worktree: {0}', record.worktree),
        vscode.l10n.t('Log: {0}', record.log),
      ].join('\n\n'),
    );
    item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[facts.status] ?? 'circle-outline');
    // A running task's row offers Pause and Stop too.
    const live = record.status === 'active' && (this.runsHere(record.log) || LIVE_STATUSES.has(facts.status));
    item.contextValue = `logbookTask.${record.status}${live ? '.running' : ''}`;
    item.id = `task:${record.name}`;
    // A click shows its conversation in the chat (Confirm and Reject there when it waits for you).
    item.command = {
      command: 'logbook.tasks.openConversation',
      title: vscode.l10n.t('Open Task Conversation'),
      arguments: [record.name],
    };
    return item;
  }
}
