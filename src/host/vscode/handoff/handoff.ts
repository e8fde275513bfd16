// Handing a conversation from the window that writes it to the window the user is in. With
// code-server, a closed browser tab's window lives on (its extension host keeps the writer lock),
// so the tab opened again would stay read-only. The reader asks, after the user agreed, by leaving a
// request beside the lock; the writer, which polls for it, lets go once it is not running a step,
// and the reader's HeldWatch opens the conversation writable as soon as the lock is free.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../../../core/log';

export const HANDOFF_FILE = 'LOCK.handoff';

export interface HandoffRequest {
  pid: number;
  hostname: string;
  /** The asking window, in words (its lock holder text). */
  holder: string;
  at: string;
}

/** Asks the writer of the conversation in `dir` to let it go to this process. */
export function requestHandoff(dir: string, holder: string): void {
  const request: HandoffRequest = {
    pid: process.pid,
    hostname: hostname(),
    holder,
    at: new Date().toISOString(),
  };
  writeFileSync(join(dir, HANDOFF_FILE), JSON.stringify(request) + '\n');
}

/**
 * A request from another live process of this host, or undefined. One from a process that is gone
 * is removed (nobody is waiting for it); one from this process is not for this process to answer.
 */
export function pendingHandoff(dir: string): HandoffRequest | undefined {
  let request: HandoffRequest;
  try {
    const v = JSON.parse(readFileSync(join(dir, HANDOFF_FILE), 'utf8')) as Partial<HandoffRequest>;
    if (typeof v.pid !== 'number' || typeof v.hostname !== 'string') return undefined;
    request = { pid: v.pid, hostname: v.hostname, holder: String(v.holder ?? ''), at: String(v.at ?? '') };
  } catch {
    return undefined; // none, or being written: the next poll reads it
  }
  if (request.hostname !== hostname() || request.pid === process.pid) return undefined;
  if (!isProcessAlive(request.pid)) {
    clearHandoff(dir);
    return undefined;
  }
  return request;
}

export function clearHandoff(dir: string): void {
  rmSync(join(dir, HANDOFF_FILE), { force: true });
}

/** How often a window checks the conversations it writes for a request to let one go. */
const HANDOFF_POLL_MS = 1_000;

interface Writable {
  readonly id: string;
  readonly dir: string;
  readonly readOnly: boolean;
  /** A step is running: it is not let go in the middle. */
  readonly busy: boolean;
}

/** The writer's side: watches the conversations it writes for a handoff request. */
export class HandoffWatch<S extends Writable> {
  private readonly watched = new Map<string, S>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly deps: {
      isCurrent(s: S): boolean;
      handOver(s: S, request: HandoffRequest): Promise<void>;
      log: { error(message: string): void };
    },
  ) {}

  watch(s: S): void {
    this.watched.set(s.id, s);
    this.timer ??= setInterval(() => this.poll(), HANDOFF_POLL_MS);
  }

  private poll(): void {
    for (const [id, s] of this.watched) {
      if (!this.deps.isCurrent(s) || s.readOnly) {
        this.watched.delete(id);
        continue;
      }
      if (s.busy) continue;
      const request = pendingHandoff(s.dir);
      if (!request) continue;
      this.watched.delete(id);
      this.deps
        .handOver(s, request)
        .catch((err: unknown) =>
          this.deps.log.error(`Could not hand conversation ${id} over: ${String(err)}`),
        );
    }
    if (this.watched.size === 0) this.dispose();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
