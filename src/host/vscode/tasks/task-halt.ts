// Pause and Stop from the Tasks view, for one task or all: each task whose session this window
// writes is paused or stopped through the chat's own Pause and Stop commands. A task another
// process runs (a `logbook run --worktree` in a terminal) is left alone and counted, so the message
// says where to stop it.
import * as vscode from 'vscode';
import type { TaskChat } from './task-chat';
import { editorTasks, taskPlace } from './task-place';

export type Halt = 'pause' | 'stop';

/**
 * Statuses of a task a live process runs (`logbook tasks`' words); `waiting` is not among them, as
 * it reads the same for a task paused with no process left.
 */
export const LIVE_STATUSES = new Set(['starting', 'setting up', 'running']);

/** Pauses or stops the named tasks (all when none is named); returns how many it acted on. */
export async function haltTasks(
  halt: Halt,
  chat: TaskChat,
  only?: string,
): Promise<{ halted: string[]; elsewhere: string[] }> {
  const { store } = await taskPlace();
  const { factsOf } = await editorTasks();
  const halted: string[] = [];
  const elsewhere: string[] = [];
  const asked: Thenable<unknown>[] = [];
  for (const task of store.list()) {
    if (task.status !== 'active' || (only !== undefined && task.name !== only)) continue;
    const held = chat.heldTask(task.log);
    if (held?.running) {
      // All at once: a pause waits for its task's model call or command to end.
      asked.push(
        vscode.commands.executeCommand(halt === 'pause' ? 'logbook.pause' : 'logbook.stop', held.id),
      );
      halted.push(task.name);
    } else if (!held && LIVE_STATUSES.has((await factsOf(task)).status)) elsewhere.push(task.name);
  }
  await Promise.all(asked);
  say(halted, elsewhere, only);
  return { halted, elsewhere };
}

function say(halted: string[], elsewhere: string[], only: string | undefined): void {
  if (elsewhere.length) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Logbook: {0} task(s) run in a terminal ({1}): stop them there with Ctrl+C.',
        String(elsewhere.length),
        elsewhere.join(', '),
      ),
    );
  } else if (!halted.length) {
    void vscode.window.showInformationMessage(
      only === undefined
        ? vscode.l10n.t('Logbook: no task runs in this window.')
        : vscode.l10n.t('Logbook: task {0} does not run in this window.', only),
    );
  }
}
