// The window's side of task-decision-log.ts: while it holds a task's log open, decisions that
// `logbook review`, `apply` or `discard` left in the log's DECISIONS folder are appended by it,
// in the order they were taken, and removed once they are in the log.
import { queuedTaskDecisions } from './task-decision-queue';
import type { TaskDecision } from '../../../core/worktrees/task-decision';

/** How often the folder is looked at; the CLI's command has ended by the time it is appended. */
const INBOX_POLL_MS = 700;

export class TaskDecisionInbox {
  private readonly timer: ReturnType<typeof setInterval>;
  private current: Promise<void> | undefined;

  constructor(
    private readonly log: string,
    private readonly append: (d: TaskDecision) => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.drain(), INBOX_POLL_MS);
    void this.drain();
  }

  /** Appends what is waiting (joining a look under way); a command's decisions go once the log holds them. */
  drain(): Promise<void> {
    this.current ??= this.look().finally(() => (this.current = undefined));
    return this.current;
  }

  private async look(): Promise<void> {
    try {
      for (const batch of queuedTaskDecisions(this.log)) {
        for (const d of batch.decisions) await this.append(d);
        batch.done();
      }
    } catch (err) {
      this.onError(err);
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
