// Review rejections, apply and discard taken in the editor, recorded in the task's signed log with
// the window's key: appended here when no process holds the log (the window lets go of a task's
// conversation before it decides), else left for the window that holds it. Records are made one at
// a time, and apply and discard wait for those under way: a record holds the log's writer lock
// while it appends, which would read as a running task.
import type { TaskDecision } from '../../../core/worktrees/task-decision';
import { windowLockHolder } from '../handoff/lock-holder';
import type { TaskChat } from './task-chat';
import { editorTasks } from './task-place';

let queue: Promise<void> = Promise.resolve();
/** The logs a record is being appended to now (their writer lock is this window's, for a moment). */
const recording = new Map<string, number>();

/** A record of this window's holds `log`'s writer lock (or is about to): not a running task. */
export function isRecording(log: string): boolean {
  return (recording.get(log) ?? 0) > 0;
}

/** Resolves once every record asked for so far is made (or failed and was logged). */
export function recordsSettled(): Promise<void> {
  return queue;
}

export function recordFromEditor(
  chat: TaskChat,
  log: { warn(message: string): void },
  task: { name: string; log: string },
  decisions: readonly TaskDecision[],
): Promise<void> {
  recording.set(task.log, (recording.get(task.log) ?? 0) + 1);
  queue = queue.then(async () => {
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
    } finally {
      recording.set(task.log, (recording.get(task.log) ?? 1) - 1);
    }
  });
  return queue;
}
