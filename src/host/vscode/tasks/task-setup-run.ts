// The setup step of a task started in the editor, as the CLI runs it (host/node/worktrees): the
// user's `worktrees.setup`, then the repository's setup file once the user accepted its text (asked
// in a modal dialog that shows it), each in the worktree, in a sandbox of its own, recorded in the
// task's log before the agent is asked anything.
import * as vscode from 'vscode';
import type { SetupStep } from '../../node/worktrees/setup-source';
import type { ConversationSession } from '../conversations/conversation-session';
import { createEditorSandbox } from '../sandbox/editor-sandbox';
import { terminalPassEnvironment } from '../settings/config';
import { errorText } from '../../../core/text/l10n';
import { editorTasks, type TaskPlace } from './task-place';

/** The steps to run; undefined when the user declined the repository's setup file (nothing is made). */
export async function setupStepsFor(place: TaskPlace): Promise<SetupStep[] | undefined> {
  const steps: SetupStep[] = place.setup ? [{ origin: 'worktrees.setup', command: place.setup }] : [];
  const { repositorySetup, setupAccepted, acceptSetup } = await editorTasks();
  const file = repositorySetup(place.workingTree);
  if (!file) return steps;
  if (!setupAccepted(process.env, place.workingTree, file)) {
    const run = vscode.l10n.t('Run It');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        "This repository's {0} would run in the task's worktree before the agent, in the sandbox. Run it, now and until it changes?",
        file.origin,
      ),
      { modal: true, detail: file.command },
      run,
    );
    if (choice !== run) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: {0} was not accepted, so no task was made.', file.origin),
      );
      return undefined;
    }
    acceptSetup(process.env, place.workingTree, file);
  }
  return [...steps, { origin: file.origin, command: file.command }];
}

/** Runs the steps; false (said, and recorded in the log) when one failed: the agent does not start. */
export async function runTaskSetup(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  session: ConversationSession,
  worktree: string,
  steps: readonly SetupStep[],
  continued = false,
): Promise<boolean> {
  if (steps.length === 0) return true;
  const { runSetupSteps } = await editorTasks();
  const { sandbox } = createEditorSandbox(context);
  try {
    await runSetupSteps({
      worktree,
      steps,
      sandbox,
      passEnvironment: terminalPassEnvironment(),
      secretValues: session.secrets.map((s) => s.value),
      conversation: session.conversation,
      continued,
      say: (step) => log.info(`Task setup (${step.origin}): ${step.command.trim().split('\n').join('; ')}`),
    });
    return true;
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
    return false;
  } finally {
    await sandbox.dispose();
  }
}
