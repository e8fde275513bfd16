// The window's side of task-decision-log.ts: while it holds a task's log open, decisions that
// `logbook review`, `apply` or `discard` left in the log's DECISIONS folder are appended by it,
// in the order they were taken, and removed once they are in the log.
import { queuedTaskDecisions } from './task-decision-queue';
import type { TaskDecision } from '../../../core/worktrees/task-decision';

/** How often the folder is looked at; the CLI's command has ended by the time it is appended. */
const INBOX_POLL_MS = 700;

export class TaskDecisionInbox {
  private readonly timer: ReturnType<typeof setInterval>;
  private draining = false;

  constructor(
    private readonly log: string,
    private readonly append: (d: TaskDecision) => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.drain(), INBOX_POLL_MS);
    void this.drain();
  }

  /** Appends what is waiting; a decision is removed only once the log holds it. */
  async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      const waiting = queuedTaskDecisions(this.log);
      if (waiting.decisions.length === 0) return;
      for (const d of waiting.decisions) await this.append(d);
      waiting.done();
    } catch (err) {
      this.onError(err);
    } finally {
      this.draining = false;
    }
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
