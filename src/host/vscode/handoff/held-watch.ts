// Conversations another window writes, opened read-only here: each is watched until no live process
// holds its lock (the window closed, or its process ended and left the lock behind), then opened
// again, writable, in place.
import { liveWriter } from '../../../core/log';

/** How often a conversation held by another window is checked for that window being gone. */
const HELD_POLL_MS = 1_500;

interface Held {
  readonly id: string;
  readonly dir: string;
}

export class HeldWatch<S extends Held> {
  private readonly timers = new Map<string, ReturnType<typeof setInterval>>();

  constructor(
    private readonly deps: {
      /** Whether `s` is still the open session of its conversation (not closed, deleted or replaced). */
      isCurrent(s: S): boolean;
      reopenWritable(s: S): Promise<void>;
      log: { error(message: string): void };
    },
  ) {}

  watch(s: S): void {
    if (this.timers.has(s.id)) return;
    const timer = setInterval(() => {
      if (!this.deps.isCurrent(s)) return this.stop(s.id);
      if (liveWriter(s.dir)) return;
      this.stop(s.id);
      this.deps
        .reopenWritable(s)
        .catch((err: unknown) =>
          this.deps.log.error(`Could not reopen conversation ${s.id} for writing: ${String(err)}`),
        );
    }, HELD_POLL_MS);
    this.timers.set(s.id, timer);
  }

  stop(id: string): void {
    clearInterval(this.timers.get(id));
    this.timers.delete(id);
  }

  dispose(): void {
    for (const id of [...this.timers.keys()]) this.stop(id);
  }
}
