// The Tasks view's behaviour, loaded with its commands on first use: each command's handler (errors
// shown, the view refreshed after), and the view's refresh (a task's record changing, a task's
// terminal closing, and every few seconds while it is visible, since a running task's status lives
// in its log, written by the chat or by another process).
import * as vscode from 'vscode';
import { errorText } from '../../../core/text/l10n';
import { gitTry } from '../../node/worktrees/git-run';
import { applyTaskHere, discardTaskHere } from './task-actions';
import { haltTasks } from './task-halt';
import { recordsSettled } from './task-decisions';
import type { ReviewController } from '../review/review-controller';
import { connectTaskReview, reviewTaskHunks } from './task-hunk-review';
import { reviewTask } from './task-review';
import { type StartOptions, startTaskInWorktree } from './task-start';
import { openTaskConversation, type TaskChat } from './task-chat';
import { editorTasks, taskPlace } from './task-place';
import type { TaskNode } from './tasks-tree';

const POLL_MS = 3000;

export interface TaskWiring extends vscode.Disposable {
  run(command: string, args: unknown[]): Promise<unknown>;
}

/** The text of logbook-task-base:/<path>?<worktree>#<commit>: the file at the task's base. */
export function baseContent(uri: vscode.Uri): string {
  const shown = gitTry(uri.query, ['show', `${uri.fragment}:${uri.path.slice(1)}`]);
  return shown.code === 0 ? shown.stdout : '';
}

/** The task a command is about: a row of the view, a name (tests, links), or one picked. */
async function taskName(arg: unknown): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && 'record' in arg) return (arg as TaskNode).record.name;
  const names = (await taskPlace()).store
    .list()
    .filter((t) => t.status !== 'discarded')
    .map((t) => ({ label: t.name, description: t.branch, detail: t.task }));
  return (await vscode.window.showQuickPick(names, { title: vscode.l10n.t('Which task?') }))?.label;
}

export function wireTasks(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  view: vscode.TreeView<unknown>,
  refresh: () => void,
  chat: TaskChat,
  review: ReviewController,
): TaskWiring {
  // Connected when a task is first reviewed per hunk: no task's review exists before that.
  let reviews: vscode.Disposable | undefined;
  const reviewHunks = async (name: string) => {
    reviews ??= connectTaskReview(review, log, await taskPlace(), await editorTasks(), chat);
    // A task's idle conversation held open here would read as running (its writer lock), and so
    // would a record of an earlier decision still being appended.
    await recordsSettled();
    await chat.letGoOfTask((await taskPlace()).store.get(name).log);
    return reviewTaskHunks(review, name);
  };
  const named =
    (fn: (name: string, rest: unknown[]) => Promise<unknown>) =>
    async ([arg, ...rest]: unknown[]): Promise<unknown> => {
      const name = await taskName(arg);
      return name === undefined ? undefined : fn(name, rest);
    };
  const handlers: Record<string, (args: unknown[]) => Promise<unknown>> = {
    refresh: async () => undefined,
    start: ([given]) => startTaskInWorktree(context, log, chat, given as StartOptions | undefined),
    openConversation: named(async (name) => openTaskConversation(chat, (await taskPlace()).store.get(name))),
    review: named(async (name) => reviewTask((await taskPlace()).store.get(name))),
    reviewHunks: named(reviewHunks),
    apply: named((name) => applyTaskHere(name, chat, log)),
    discard: named((name, [confirmed]) => discardTaskHere(name, chat, log, confirmed === true)),
    pauseAll: () => haltTasks('pause', chat),
    stopAll: () => haltTasks('stop', chat),
    pause: named((name) => haltTasks('pause', chat, name)),
    stop: named((name) => haltTasks('stop', chat, name)),
    openWorktree: named(async (name) => {
      const task = (await taskPlace()).store.get(name);
      await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(task.worktree), {
        forceNewWindow: true,
      });
    }),
  };
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    clearInterval(timer);
    timer = view.visible ? setInterval(refresh, POLL_MS) : undefined;
  };
  let watcher: vscode.FileSystemWatcher | undefined;
  let watching = false;
  const watch = async () => {
    if (watching || !view.visible) return;
    watching = true;
    const dir = vscode.Uri.file((await taskPlace()).store.dir);
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, '.tasks/*.json'));
    watcher.onDidCreate(refresh);
    watcher.onDidChange(refresh);
    watcher.onDidDelete(refresh);
  };
  // No repository: the view says so; a later showing tries again.
  const shown = () => {
    poll();
    void watch().catch(() => (watching = false));
  };
  shown();
  const subscriptions = [view.onDidChangeVisibility(shown), vscode.window.onDidCloseTerminal(refresh)];
  return {
    async run(command, args) {
      try {
        return await handlers[command]?.(args);
      } catch (err) {
        log.warn(`Tasks: ${String(err)}`);
        void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
        return undefined;
      } finally {
        refresh();
      }
    },
    dispose() {
      clearInterval(timer);
      watcher?.dispose();
      reviews?.dispose();
      for (const s of subscriptions) s.dispose();
    },
  };
}
