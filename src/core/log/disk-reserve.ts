// A few kilobytes set aside beside the log, so that when the disk fills up the records that say
// the conversation stopped (and why) can still be written.
import fs from 'node:fs';

/**
 * Space set aside for a full disk: freed when an append fails with ENOSPC, so the few records that
 * say the conversation stopped, and why, still fit (a reader must not find it still running).
 */
export const RESERVE = 'reserve';
const RESERVE_BYTES = 32 * 1024;

/** Creates the reserve file if it is missing; on a disk too full for it, goes without. */
export function keepReserve(file: string): void {
  if (fs.existsSync(file)) return;
  try {
    // Not zeros: a filesystem that compresses or dedups them would set nothing aside.
    fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES, 'logbook reserve\n'));
  } catch {
    fs.rmSync(file, { force: true });
  }
}

export function releaseReserve(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    /* already used */
  }
}
