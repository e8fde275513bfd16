// How `logbook apply` and `discard` tell a task's conversation that a window holds open between two
// steps from one whose step is in flight. Both hold the log's writer lock, so the window says more
// with two lock files in the log's folder: HELD while it holds the conversation open (it takes STEP
// before every step), and STEP while a step runs. Apply and discard take STEP themselves for their
// whole work, so no step can start under them; a writer without HELD (a `logbook run`) stays running.
import { acquireLock, type HeldLock, hasLiveWriter } from '../../../core/log';

export const HELD_FILE = 'HELD';
export const STEP_FILE = 'STEP';

/** The window's side, for one open session of a task's log. */
export class TaskStepGuard {
  private held: HeldLock | undefined;

  constructor(
    /** The task's log folder. */
    readonly dir: string,
    private readonly holder: string,
  ) {}

  /** Once the session holds the log's writer lock: the CLI may now ask for STEP. */
  hold(): void {
    const r = acquireLock(this.dir, HELD_FILE, this.holder);
    if (r.acquired) this.held = r.lock;
  }

  /** STEP for one run; undefined while apply or discard has it. */
  step(): HeldLock | undefined {
    const r = acquireLock(this.dir, STEP_FILE, this.holder);
    return r.acquired ? r.lock : undefined;
  }

  dispose(): void {
    this.held?.release();
    this.held = undefined;
  }
}

/**
 * Runs `work` on a task whose log is at `log` unless a step of it may be in flight (then throws
 * `running()`): nobody writes the log, or a window holds it open and no step runs (STEP is then
 * held here until `work` is done).
 */
export async function unlessStepRuns<T>(
  log: string,
  running: () => Error,
  work: () => T | Promise<T>,
): Promise<T> {
  if (!hasLiveWriter(log)) return work();
  if (!hasLiveWriter(log, HELD_FILE)) throw running();
  const step = acquireLock(log, STEP_FILE, `logbook (pid ${process.pid})`);
  if (!step.acquired) throw running();
  try {
    // The window may have let go meanwhile (and a `logbook run` taken the log): look again.
    if (hasLiveWriter(log) && !hasLiveWriter(log, HELD_FILE)) throw running();
    return await work();
  } finally {
    step.lock.release();
  }
}
