// Wires worktree tasks into the editor: the Tasks view, its commands, and its refresh (a task's
// record changing, a task's terminal closing, and every few seconds while the view is visible, since
// a running task's status lives in its log, written by another process).
import * as vscode from 'vscode';
import { errorText } from '../../../core/text/l10n';
import { applyTaskHere, discardTaskHere } from './task-actions';
import { registerTaskBaseDocuments, reviewTask } from './task-review';
import { startTaskInWorktree } from './task-start';
import { taskPlace } from './task-place';
import { type TaskNode, TasksTree } from './tasks-tree';

const POLL_MS = 3000;

/** The task a command is about: a row of the view, a name (tests, links), or one picked. */
async function taskName(arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'record' in arg) return (arg as TaskNode).record.name;
  const names = taskPlace()
    .store.list()
    .filter((t) => t.status !== 'discarded')
    .map((t) => ({ label: t.name, description: t.branch, detail: t.task }));
  return (await vscode.window.showQuickPick(names, { title: vscode.l10n.t('Which task?') }))?.label;
}

export function registerTasks(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  const tree = new TasksTree();
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
  let watcher: vscode.FileSystemWatcher | undefined;
  try {
    const dir = vscode.Uri.file(taskPlace().store.dir);
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, '.tasks/*.json'));
    watcher.onDidCreate(refresh);
    watcher.onDidChange(refresh);
    watcher.onDidDelete(refresh);
  } catch {
    // no repository here: the view says so, nothing to watch
  }
  return [
    view,
    registerTaskBaseDocuments(),
    ...(watcher ? [watcher] : []),
    view.onDidChangeVisibility(poll),
    vscode.window.onDidCloseTerminal(refresh),
    { dispose: () => clearInterval(timer) },
    vscode.commands.registerCommand('logbook.tasks.refresh', refresh),
    vscode.commands.registerCommand(
      'logbook.tasks.start',
      guarded((given) =>
        startTaskInWorktree(context, given as Parameters<typeof startTaskInWorktree>[1]).then((s) =>
          s ? { args: s.args, name: s.terminal.name } : undefined,
        ),
      ),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.review',
      guarded(withName((name) => reviewTask(taskPlace().store.get(name)))),
    ),
    vscode.commands.registerCommand('logbook.tasks.apply', guarded(withName((name) => applyTaskHere(name)))),
    vscode.commands.registerCommand(
      'logbook.tasks.discard',
      guarded(withName((name, confirmed) => discardTaskHere(name, confirmed === true))),
    ),
    vscode.commands.registerCommand(
      'logbook.tasks.openWorktree',
      guarded(
        withName(async (name) => {
          const task = taskPlace().store.get(name);
          await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(task.worktree), {
            forceNewWindow: true,
          });
        }),
      ),
    ),
  ];
}
