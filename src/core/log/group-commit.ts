// Group commit: many appends share one fdatasync. Writes happen synchronously in append(); this
// class only decides when to sync and whom to wake. A durable waiter triggers a sync at once (or
// right after the one in flight, which may have started before its write); ordinary writes are
// synced by a short timer or once enough bytes are pending. Only one sync runs at a time.
//
// Marks are monotonically increasing numbers chosen by the caller (the store uses its record count):
// `durable(m)` resolves once a sync that started after mark m was written has completed.

export interface GroupCommitOptions {
  /** performs the sync of everything written so far */
  sync: () => Promise<void>;
  /** longest time an ordinary write waits for its sync */
  delayMs: number;
  /** sync at once when this many bytes are waiting */
  maxPendingBytes: number;
  /** called after every successful sync with the mark it covered */
  onSynced?: (mark: number) => void;
}

interface Waiter {
  mark: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommit {
  private written = 0;
  private synced = 0;
  private pendingBytes = 0;
  private inFlight: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failure: unknown = null;

  constructor(private readonly opts: GroupCommitOptions) {}

  /** the mark covered by the last completed sync */
  get syncedMark(): number {
    return this.synced;
  }

  get failed(): unknown {
    return this.failure;
  }

  /** Starts marks at a value (records already on disk when the store opened). */
  reset(mark: number): void {
    this.written = mark;
    this.synced = mark;
  }

  /** Records that everything up to `mark` has been written (not yet synced). */
  wrote(mark: number, bytes: number): void {
    this.written = mark;
    this.pendingBytes += bytes;
    if (this.pendingBytes >= this.opts.maxPendingBytes) this.kick();
    else if (!this.timer && !this.inFlight) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.kick();
      }, this.opts.delayMs);
      // A pending group commit must not keep the process alive; close() flushes explicitly.
      this.timer.unref?.();
    }
  }

  /** Resolves once everything up to `mark` is synced. */
  durable(mark: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (mark <= this.synced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ mark, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once everything written so far is synced. */
  flush(): Promise<void> {
    return this.durable(this.written);
  }

  private kick(): void {
    if (this.failure || this.inFlight) return;
    if (this.written <= this.synced) {
      this.pendingBytes = 0;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const mark = this.written;
    this.pendingBytes = 0;
    this.inFlight = this.opts.sync().then(
      () => {
        this.inFlight = null;
        this.synced = Math.max(this.synced, mark);
        const still: Waiter[] = [];
        for (const w of this.waiters) {
          if (w.mark <= mark) w.resolve();
          else still.push(w);
        }
        this.waiters = still;
        this.opts.onSynced?.(mark);
        // Writes that arrived during the sync: durable waiters go now, the rest on the timer.
        if (this.waiters.length > 0) this.kick();
        else if (this.written > this.synced) this.wrote(this.written, 0);
      },
      (err: unknown) => {
        this.inFlight = null;
        // After a failed fsync the page cache can no longer be trusted to reach the disk
        // (the kernel may have dropped the dirty pages), so the store stops accepting writes.
        this.failure = err;
        const ws = this.waiters;
        this.waiters = [];
        for (const w of ws) w.reject(err);
      },
    );
  }

  /** Stops the timer; callers flush() first when they want the data on disk. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Waits for a sync in flight, if any (so its file descriptors can be closed). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }
}
