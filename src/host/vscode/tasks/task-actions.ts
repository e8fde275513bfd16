// Apply and discard from the Tasks view, through the same functions as `logbook apply` and
// `logbook discard`. Apply refuses over uncommitted changes unless the user confirms, and leaves a
// conflict as git leaves it: the conflicted files are opened (VS Code shows their conflict
// markers and offers its merge editor) and said, never resolved here. Discard asks first.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { hasLiveWriter } from '../../../core/log';
import type { TaskRecord } from '../../../core/worktrees';
import type { ApplyResult } from '../../node/worktrees/apply-task';
import { editorTasks, taskPlace } from './task-place';
import type { TaskChat } from './task-chat';
import { recordFromEditor, recordsSettled } from './task-decisions';

/** A task's conversation this window holds is closed first, unless a step of it runs. */
async function refuseRunning(task: TaskRecord, chat: TaskChat): Promise<boolean> {
  await recordsSettled();
  if ((await chat.letGoOfTask(task.log)) && !hasLiveWriter(task.log)) return false;
  void vscode.window.showWarningMessage(
    vscode.l10n.t('Logbook: task {0} is running; wait until it has stopped.', task.name),
  );
  return true;
}

export async function applyTaskHere(
  name: string,
  chat: TaskChat,
  log: { warn(message: string): void },
): Promise<ApplyResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Logbook: this workspace is not trusted; trust it to apply a task (git runs its hooks).'),
    );
    return undefined;
  }
  const { store, workingTree } = await taskPlace();
  const { applyDecision, applyObstacle, applyTask } = await editorTasks();
  const task = store.get(name);
  if (task.status === 'discarded')
    throw new Error(vscode.l10n.t('Task {0} was discarded; its branch is gone.', task.name));
  if (await refuseRunning(task, chat)) return undefined;
  const blocked = applyObstacle(workingTree, true);
  if (blocked) throw new Error(blocked);
  if (applyObstacle(workingTree, false)) {
    const anyway = vscode.l10n.t('Apply Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Your working tree has uncommitted changes. Apply task {0} over them?', task.name),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Git still refuses to overwrite a file you changed that the task changed too. Committing or stashing your changes first is safer.',
        ),
      },
      anyway,
    );
    if (choice !== anyway) return undefined;
  }
  const result = applyTask(task, workingTree);
  await recordFromEditor(chat, log, task, [applyDecision(task, 'editor', workingTree, result)]);
  switch (result.kind) {
    case 'nothing':
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: {0} holds nothing your working tree does not have already.', task.branch),
      );
      break;
    case 'merged':
      store.put({ ...task, status: 'applied', updated: new Date().toISOString() });
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Logbook: merged task {0} ({1} file(s), commit {2}). Its branch and worktree are kept until you discard it.',
          task.name,
          String(result.files.length),
          result.commit.slice(0, 10),
        ),
      );
      break;
    case 'conflict':
      for (const f of result.conflicted)
        await vscode.window.showTextDocument(vscode.Uri.file(join(workingTree, f)), { preview: false });
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Logbook: merging task {0} stopped on conflicts in {1}. Nothing was resolved for you: resolve the conflict markers (or use the merge editor) and commit, or run git merge --abort to go back.',
          task.name,
          result.conflicted.join(', '),
        ),
      );
      break;
  }
  return result;
}

export async function discardTaskHere(
  name: string,
  chat: TaskChat,
  log: { warn(message: string): void },
  confirmed = false,
): Promise<boolean> {
  const { store } = await taskPlace();
  const { discardDecision, discardTask } = await editorTasks();
  const task = store.get(name);
  if (task.status === 'discarded') return false;
  if (await refuseRunning(task, chat)) return false;
  if (!confirmed) {
    const discard = vscode.l10n.t('Discard');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Discard task {0}?', task.name),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its worktree (with anything uncommitted in it) and its branch {0} are removed. Its conversation log is kept.',
          task.branch,
        ),
      },
      discard,
    );
    if (choice !== discard) return false;
  }
  discardTask(task, store.repo.top);
  store.put({ ...task, status: 'discarded', updated: new Date().toISOString() });
  await recordFromEditor(chat, log, task, [discardDecision(task, 'editor')]);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Logbook: discarded task {0}; its log is kept in {1}.', task.name, task.log),
  );
  return true;
}
