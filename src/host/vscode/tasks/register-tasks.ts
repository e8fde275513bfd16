// The Tasks view and its commands, registered at activation as thin stubs: the rows' code, the
// commands and the view's refresh load on first use (the lazy task-commands bundle).
import * as vscode from 'vscode';
import type { TaskChat } from './task-chat';
import type { ContinueRequest } from './task-continue';
import type { ReviewController } from '../review/review-controller';
import type { TaskWiring } from './task-wiring';
import type { TaskNode, TasksTree } from './tasks-tree';
import { TASK_BASE_SCHEME } from './task-scheme';

const commands = () => import('./task-commands');
const COMMANDS = [
  'refresh',
  'start',
  'openConversation',
  'review',
  'reviewHunks',
  'apply',
  'discard',
  'openWorktree',
  'pauseAll',
  'stopAll',
  'pause',
  'stop',
];

/** The Tasks view's provider; the rows' code loads when the view first asks for them. */
class LazyTasksTree implements vscode.TreeDataProvider<TaskNode | string> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private tree: Promise<TasksTree> | undefined;

  constructor(private readonly chat: TaskChat) {}

  private real(): Promise<TasksTree> {
    return (this.tree ??= commands().then(
      (m) => new m.TasksTree((dir) => !!this.chat.heldTask(dir)?.running),
    ));
  }

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: TaskNode | string): Promise<(TaskNode | string)[]> {
    return (await this.real()).getChildren(node);
  }

  async getTreeItem(node: TaskNode | string): Promise<vscode.TreeItem> {
    return (await this.real()).getTreeItem(node);
  }
}

export function registerTasks(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  chat: TaskChat,
  review: ReviewController,
): vscode.Disposable[] {
  const tree = new LazyTasksTree(chat);
  // The Conversations view lists the tasks' conversations too.
  const refresh = () => {
    tree.refresh();
    chat.tasksChanged();
  };
  const view = vscode.window.createTreeView('logbook.tasks', { treeDataProvider: tree });
  let wired: Promise<TaskWiring> | undefined;
  const wire = () =>
    (wired ??= commands().then((m) => m.wireTasks(context, log, view, refresh, chat, review)));
  if (view.visible) void wire();
  return [
    view,
    view.onDidChangeVisibility(() => void wire()),
    vscode.workspace.registerTextDocumentContentProvider(TASK_BASE_SCHEME, {
      provideTextDocumentContent: async (uri) => (await commands()).baseContent(uri),
    }),
    ...COMMANDS.map((id) =>
      vscode.commands.registerCommand(`logbook.tasks.${id}`, async (...args: unknown[]) =>
        (await wire()).run(id, args),
      ),
    ),
    // The chat's Continue from here on a task's conversation (not in the palette): its errors go
    // back to the chat, which shows them.
    vscode.commands.registerCommand('logbook.tasks.continueFrom', async (req: ContinueRequest) => {
      try {
        return await (await commands()).continueTaskFrom(context, log, chat, req);
      } finally {
        refresh();
      }
    }),
    { dispose: () => void wired?.then((w) => w.dispose()) },
  ];
}
