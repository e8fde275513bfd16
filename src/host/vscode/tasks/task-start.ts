// "Logbook: Start Agent Task in Worktree": asks for the task, a name (optional) and whether the
// uncommitted change goes along, then makes the branch and worktree as `logbook run --worktree`
// does (the same code), runs the setup step, and starts the task's conversation in the chat: its
// log where the CLI keeps that task's log, its worktree as its only workspace folder (edits,
// terminals, the sandbox's writable set, checkpoints). Your working tree stays as it is.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { taskNameProblem } from '../../../core/worktrees';
import { urlSecrets, withoutUrlCredentials } from '../../../core/secrets/url-secrets';
import type { ConfirmationMode } from '../../../core/agent/settings';
import { editorSetting, readDefaultMode } from '../settings/config';
import { editorTasks, taskPlace } from './task-place';
import { placeOf, type TaskChat } from './task-chat';
import { runTaskSetup, setupStepsFor } from './task-setup-run';

export interface StartedTask {
  name: string;
  /** The task's conversation, shown in the chat. */
  id: string;
}

/** What a caller may give beforehand (the rest is asked). */
export interface StartOptions {
  task?: string;
  name?: string;
  carry?: boolean;
}

export async function startTaskInWorktree(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  chat: TaskChat,
  given?: StartOptions,
): Promise<StartedTask | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Logbook: this workspace is not trusted, so no task starts in a worktree. Trust it first.',
      ),
    );
    return undefined;
  }
  const place = await taskPlace();
  const task =
    given?.task ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Start Agent Task in Worktree'),
      prompt: vscode.l10n.t('What should the agent do, on a branch and worktree of its own?'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Say what the task is.') : undefined),
    }));
  if (!task?.trim()) return undefined;
  const name =
    given?.name ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Task name (branch logbook/NAME)'),
      prompt: vscode.l10n.t('Empty: a name made from the task.'),
      ignoreFocusOut: true,
      validateInput: (v) =>
        v === ''
          ? undefined
          : (taskNameProblem(v) ?? (place.store.has(v) ? vscode.l10n.t('A task has that name.') : undefined)),
    }));
  if (name === undefined) return undefined;
  let carry = given?.carry;
  if (carry === undefined) {
    const no = vscode.l10n.t('Start from HEAD');
    const yes = vscode.l10n.t('Carry my uncommitted change');
    const picked = await vscode.window.showQuickPick([no, yes], {
      title: vscode.l10n.t('Your uncommitted change'),
      placeHolder: vscode.l10n.t('Your working tree stays as it is either way.'),
    });
    if (!picked) return undefined;
    carry = picked === yes;
  }
  const steps = await setupStepsFor(place);
  if (!steps) return undefined;
  const tasks = await editorTasks();
  const { record, carried } = tasks.createTask(place.store, {
    from: place.workingTree,
    task: task.trim(),
    carry,
    ...(name ? { name } : {}),
  });
  log.info(
    `Task ${record.name}: branch ${record.branch} from ${record.base.slice(0, 10)}, worktree ${record.worktree}` +
      (carried ? ` (carried ${carried.tracked} tracked, ${carried.untracked} untracked file(s))` : ''),
  );
  const id = randomUUID();
  mkdirSync(record.log, { recursive: true });
  const session = await chat.showTask(id, placeOf(record));
  // What `logbook show`, `approve` and `run --store` read: the conversation's id and workspace.
  tasks.writeSessionInfo(
    record.log,
    tasks.newSessionInfo({ id, workspace: record.worktree, ...recordedSettings() }),
  );
  await vscode.commands.executeCommand('logbook.chat.focus');
  await session.setMode(readDefaultMode());
  // After the task's message, so the model reads the setup's commands as answered calls of its turn.
  await session.send(record.task, undefined, () =>
    runTaskSetup(context, log, session, record.worktree, steps),
  );
  return { name: record.name, id };
}

/** The editor's settings as session.json records them: never a key, nor a URL's credentials. */
export function recordedSettings() {
  const url = editorSetting<string>('model.baseURL');
  return {
    confirmation: editorSetting<ConfirmationMode>('confirmation.mode'),
    max_iterations: null,
    max_tool_calls_per_reply: null,
    model: editorSetting<string | null>('model.name') ?? null,
    base_url: url && urlSecrets(url, '').length === 0 ? withoutUrlCredentials(url) : null,
  };
}
