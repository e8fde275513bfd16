// "Logbook: Start Agent Task in Worktree": asks for the task, a name (optional) and whether the
// uncommitted change goes along, then runs `logbook run --worktree` in a terminal of its own. The
// CLI makes the branch and worktree, runs the setup step (asking at that terminal before a
// repository's setup file runs) and the conversation, with the worktree as its workspace, its own
// log, checkpoints and sandbox: one implementation of a task, whichever host starts it.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { taskNameProblem } from '../../../core/worktrees';
import { urlSecrets } from '../../../core/secrets/url-secrets';
import { editorSetting } from '../settings/config';
import { taskPlace } from './task-place';

/**
 * The editor's endpoint and model, so the task talks to the model the chat does. Never the key
 * (the CLI reads its own, from the user's environment or config file), nor a URL holding one.
 */
function endpointEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  const url = editorSetting<string>('model.baseURL');
  if (url && urlSecrets(url, '').length === 0) env.LOGBOOK_BASE_URL = url;
  const model = editorSetting<string | null>('model.name');
  if (model) env.LOGBOOK_MODEL = model;
  return env;
}

export interface StartedTask {
  terminal: vscode.Terminal;
  args: string[];
}

/** The `logbook run` arguments of a task; the task's text comes after `--`, so it is never an option. */
export function startArgs(task: string, name: string | undefined, carry: boolean): string[] {
  return ['run', name ? `--worktree=${name}` : '--worktree', ...(carry ? ['--carry'] : []), '--', task];
}

/** What a caller may give beforehand (the rest is asked). */
export interface StartOptions {
  task?: string;
  name?: string;
  carry?: boolean;
}

export async function startTaskInWorktree(
  context: vscode.ExtensionContext,
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
  const args = startArgs(task.trim(), name || undefined, carry);
  const terminal = vscode.window.createTerminal({
    name: vscode.l10n.t('Logbook task {0}', name || task.trim().slice(0, 24)),
    cwd: place.workingTree,
    shellPath: process.execPath,
    shellArgs: [join(context.extensionPath, 'dist', 'cli.js'), ...args],
    env: {
      // In the desktop editor the extension host is Electron: this makes it run the CLI as Node.
      ELECTRON_RUN_AS_NODE: '1',
      // The terminal's environment is the editor's, not this process's: the root said again.
      LOGBOOK_WORKTREES_DIR: place.root,
      ...endpointEnv(),
    },
    iconPath: new vscode.ThemeIcon('git-branch'),
  });
  terminal.show(true);
  return { terminal, args };
}
