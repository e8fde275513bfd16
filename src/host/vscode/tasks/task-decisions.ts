// Review rejections, apply and discard taken in the editor, recorded in the task's signed log with
// the window's key: appended here when no process holds the log (the window lets go of a task's
// conversation before it decides), else left for the window that holds it.
import type { TaskDecision } from '../../../core/worktrees/task-decision';
import { windowLockHolder } from '../handoff/lock-holder';
import type { TaskChat } from './task-chat';
import { editorTasks } from './task-place';

export async function recordFromEditor(
  chat: TaskChat,
  log: { warn(message: string): void },
  task: { name: string; log: string },
  decisions: readonly TaskDecision[],
): Promise<void> {
  try {
    const { recordTaskDecisions } = await editorTasks();
    await recordTaskDecisions(task.log, decisions, {
      signing: await chat.signingKey.identity(),
      headFile: (id) => chat.headFile(id),
      holder: windowLockHolder(),
    });
  } catch (err) {
    // The decision itself is done (its commit is on the branch); only its record is missing.
    log.warn(`Tasks: the decision on ${task.name} was not recorded in its log: ${String(err)}`);
  }
}
