// Wires worktree tasks into the editor: the Tasks view, its commands, and its refresh (a task's
// record changing, a task's terminal closing, and every few seconds while the view is visible, since
// a running task's status lives in its log, written by another process).
import * as vscode from 'vscode';
import { errorText } from '../../../core/text/l10n';
import type { startTaskInWorktree } from './task-start';
import { TASK_BASE_SCHEME } from './task-scheme';
import type { TaskNode, TasksTree } from './tasks-tree';

const POLL_MS = 3000;

const commands = () => import('./task-commands');

/** The Tasks view's provider; the rows' code loads when the view first asks for them. */
class LazyTasksTree implements vscode.TreeDataProvider<TaskNode | string> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private tree: Promise<TasksTree> | undefined;

  private real(): Promise<TasksTree> {
    return (this.tree ??= commands().then((m) => new m.TasksTree()));
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

/** A file as it was at a task's base commit: logbook-task-base:/<path>?<worktree>#<commit>. */
function registerTaskBaseDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(TASK_BASE_SCHEME, {
    async provideTextDocumentContent(uri) {
      const shown = (await commands()).gitTry(uri.query, ['show', `${uri.fragment}:${uri.path.slice(1)}`]);
      return shown.code === 0 ? shown.stdout : '';
    },
  });
}

/** The task a command is about: a row of the view, a name (tests, links), or one picked. */
async function taskName(arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'record' in arg) return (arg as TaskNode).record.name;
  const names = (await (await commands()).taskPlace()).store
    .list()
    .filter((t) => t.status !== 'discarded')
    .map((t) => ({ label: t.name, description: t.branch, detail: t.task }));
  return (await vscode.window.showQuickPick(names, { title: vscode.l10n.t('Which task?') }))?.label;
}

export function registerTasks(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const tree = new LazyTasksTree();
  const view = vscode.window.createTreeView('logbook.tasks', { treeDataProvider: tree });
  const refresh = () => tree.refresh();
  const guarded =
    <T>(fn: (arg: unknown, ...rest: unknown[]) => Promise<T>) =>
    async (arg?: unknown, ...rest: unknown[]): Promise<T | undefined> => {
      try {
        return await fn(arg, ...rest);
      } catch (err) {
        log.warn(`Tasks: ${String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
        return undefined;
      } finally {
        refresh();
      }
    };
  const withName =
    <T>(fn: (name: string, ...rest: unknown[]) => Promise<T>) =>
    async (arg: unknown, ...rest: unknown[]): Promise<T | undefined> => {
      const name = await taskName(arg);
      return name === undefined ? undefined : fn(name, ...rest);
    };
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    clearInterval(timer);
    timer = view.visible ? setInterval(refresh, POLL_MS) : undefined;
  };
  poll();
  // Watched once the view is first shown (the task store loads then, not at activation).
  let watcher: vscode.FileSystemWatcher | undefined;
  let watching = false;
  const watch = async () => {
    if (watching || !view.visible) return;
    watching = true;
    const dir = vscode.Uri.file((await (await commands()).taskPlace()).store.dir);
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, '.tasks/*.json'));
    watcher.onDidCreate(refresh);
    watcher.onDidChange(refresh);
    watcher.onDidDelete(refresh);
  };
  // No repository: the view says so; a later showing tries again.
  const watchQuietly = () => void watch().catch(() => (watching = false));
  watchQuietly();
  return [
    view,
    registerTaskBaseDocuments(),
    { dispose: () => watcher?.dispose() },
    view.onDidChangeVisibility(() => {
      poll();
      watchQuietly();
    }),
    vscode.window.onDidCloseTerminal(refresh),
    { dispose: () => clearInterval(timer) },
    vscode.commands.registerCommand('logbook.tasks.refresh', refresh),
    vscode.commands.registerCommand(
      'logbook.tasks.start',
      guarded(async (given) => {
        const { startTaskInWorktree: start } = await commands();
        const s = await start(context, given as Parameters<typeof startTaskInWorktree>[1]);
        return s ? { args: s.args, name: s.terminal.name } : undefined;
      }),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.review',
      guarded(
        withName(async (name) =>
          (await commands()).reviewTask((await (await commands()).taskPlace()).store.get(name)),
        ),
      ),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.apply',
      guarded(withName(async (name) => (await commands()).applyTaskHere(name))),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.discard',
      guarded(
        withName(async (name, confirmed) => (await commands()).discardTaskHere(name, confirmed === true)),
      ),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.openWorktree',
      guarded(
        withName(async (name) => {
          const task = (await (await commands()).taskPlace()).store.get(name);
          await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(task.worktree), {
            forceNewWindow: true,
          });
        }),
      ),
    ),
  ];
}
