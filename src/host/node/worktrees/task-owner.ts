// The process that starts a worktree task holds a lock beside the task's log (`NAME.owner` in
// `.conversations/`) from before the task's record is written until it exits. Until the log has
// anything in it (the worktree being made, the carry, the process starting), that lock is what
// tells a task that is starting from one whose process is gone: `logbook tasks` and the Tasks view
// read a live owner as starting, and only a dead one as crashed.
import { basename, dirname } from 'node:path';
import { acquireLock, hasLiveWriter } from '../../../core/log';

function ownerLock(log: string): { dir: string; file: string } {
  return { dir: dirname(log), file: `${basename(log)}.owner` };
}

const held = new Map<string, () => void>();

/** Takes the task's owner lock for this process, released when it exits; throws when another holds it. */
export function holdTaskOwner(log: string): void {
  const { dir, file } = ownerLock(log);
  const got = acquireLock(dir, file, 'logbook run --worktree');
  if (!got.acquired)
    throw new Error(`the task whose log is ${log} is being started by another process: ${got.message}`);
  const release = () => {
    if (held.delete(log)) got.lock.release();
  };
  held.set(log, release);
  process.once('exit', release);
}

/** Lets go of the owner lock of a task this process made and then removed again. */
export function releaseTaskOwner(log: string): void {
  held.get(log)?.();
}

/** Whether the process that started the task still runs. */
export function taskOwnerAlive(log: string): boolean {
  const { dir, file } = ownerLock(log);
  return hasLiveWriter(dir, file);
}
