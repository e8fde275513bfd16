/**
 * What a reader reports for a conversation it does not write. A log that says `running` while no
 * live process holds its writer lock was left by a process that died (kill -9, a crash, a killed
 * window): nothing runs it. Readers report it as paused and interrupted, without writing anything;
 * the next writable open records the recovery (recovery.ts) and the in-doubt actions still wait
 * for the user's choice.
 */
import type { ExecutionStatus } from './transitions';

export const INTERRUPTED_REASON = 'interrupted: the process that ran it is gone';

export interface ReaderStatus {
  status: ExecutionStatus;
  /** Why the log's own status is not the one reported; null when it is. */
  interrupted: string | null;
}

/** The status to report for a log whose own status is `status`, given whether a live writer holds it. */
export function statusForReader(status: ExecutionStatus, writerAlive: boolean): ReaderStatus {
  if (status === 'running' && !writerAlive) return { status: 'paused', interrupted: INTERRUPTED_REASON };
  return { status, interrupted: null };
}
