// Single-writer lock for a conversation directory.
//
// The lock file is created complete or not at all: its content is written to a private temp file
// which is then hard-linked to LOCK (link fails with EEXIST if LOCK exists), so nobody ever reads a
// half-written lock. A lock whose pid is dead on this host is stale and is taken over under a short
// "takeover" lock, so two processes that both notice the stale lock cannot both remove it (one of
// them would otherwise delete the other's fresh lock). A lock from another host is never assumed
// stale: we cannot see its processes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'LOCK';
const TAKEOVER_FILE = 'LOCK.takeover';
/** a takeover lock older than this whose owner is dead is removed */
const TAKEOVER_STALE_MS = 5_000;

export interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  token: string;
  /** Linux process start time (ticks since boot), so a recycled pid is not mistaken for the owner */
  procStart?: string;
  /** Who the writer is, in words for a reader's message (e.g. which editor window); never a secret */
  holder?: string;
}

export interface HeldLock {
  readonly info: LockInfo;
  readonly file: string;
  /** the stale lock this one replaced, if any */
  readonly tookOver: LockInfo | null;
  release(): void;
}

export type LockResult =
  { acquired: true; lock: HeldLock } | { acquired: false; heldBy: LockInfo | null; message: string };

/** tokens of locks held by this process, so a lock naming our own pid is told apart from ours */
const heldTokens = new Set<string>();

function procStartOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    // A zombie holds nothing: a CLI that died an orphan is one until init reaps it.
    return !isZombie(pid);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

export function describeLock(info: LockInfo | null): string {
  if (!info) return 'the lock file is unreadable';
  const who = info.holder ? `${info.holder}, ` : '';
  return `locked by ${who}pid ${info.pid} on ${info.hostname} since ${info.startedAt}`;
}

/** Longest holder description kept in a lock file (it is shown in messages, not parsed). */
const HOLDER_MAX = 200;

function readLock(file: string): LockInfo | null | 'missing' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return null;
  }
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid !== 'number' || typeof v.hostname !== 'string' || typeof v.token !== 'string')
      return null;
    return {
      pid: v.pid,
      hostname: v.hostname,
      startedAt: String(v.startedAt ?? ''),
      token: v.token,
      ...(typeof v.procStart === 'string' ? { procStart: v.procStart } : {}),
      ...(typeof v.holder === 'string' ? { holder: v.holder.slice(0, HOLDER_MAX) } : {}),
    };
  } catch {
    return null;
  }
}

/** Stale = unreadable, or ours-by-pid but not a token we hold, or its pid is gone on this host. */
function isStale(info: LockInfo | null): boolean {
  if (!info) return true;
  if (info.hostname !== os.hostname()) return false;
  if (info.pid === process.pid) return !heldTokens.has(info.token);
  if (!isProcessAlive(info.pid)) return true;
  if (info.procStart !== undefined) {
    const now = procStartOf(info.pid);
    if (now !== undefined && now !== info.procStart) return true;
  }
  return false;
}

function newInfo(holder?: string): LockInfo {
  const procStart = procStartOf(process.pid);
  return {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    token: crypto.randomUUID(),
    ...(procStart !== undefined ? { procStart } : {}),
    ...(holder ? { holder: holder.slice(0, HOLDER_MAX) } : {}),
  };
}

/** unlink, where a file already gone is fine (cheaper than rmSync, which is built for trees) */
function removeFile(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Creates `file` with `info` atomically; false if it already exists. */
function createExclusive(file: string, info: LockInfo): boolean {
  const tmp = `${file}.${info.token}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info) + '\n');
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    removeFile(tmp);
  }
}

function held(file: string, info: LockInfo, tookOver: LockInfo | null): HeldLock {
  heldTokens.add(info.token);
  let released = false;
  return {
    info,
    file,
    tookOver,
    release() {
      if (released) return;
      released = true;
      heldTokens.delete(info.token);
      // Only remove the file if it is still ours.
      const cur = readLock(file);
      if (cur !== 'missing' && cur?.token === info.token) removeFile(file);
    },
  };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Removes a takeover lock left by a process that died during a takeover. */
function clearDeadTakeover(takeover: string): void {
  const cur = readLock(takeover);
  if (cur === 'missing') return;
  let age = 0;
  try {
    age = Date.now() - fs.statSync(takeover).mtimeMs;
  } catch {
    return;
  }
  if (age < TAKEOVER_STALE_MS || !isStale(cur)) return;
  // Move it aside and check we moved the one we judged dead before deleting it.
  const aside = `${takeover}.${crypto.randomUUID()}.dead`;
  try {
    fs.renameSync(takeover, aside);
  } catch {
    return;
  }
  const moved = readLock(aside);
  if (moved !== 'missing' && cur !== null && moved?.token !== cur.token) {
    try {
      fs.linkSync(aside, takeover);
    } catch {
      /* someone created a new one meanwhile; theirs stands */
    }
  }
  removeFile(aside);
}

/**
 * Tries to become the single writer of `dir` (created if needed). Never blocks: when another
 * live process holds the lock the result says who, and the caller opens read-only. `holder` says
 * in words who this writer is, for the messages of readers that find the lock held.
 */
export function acquireLock(dir: string, fileName = LOCK_FILE, holder?: string): LockResult {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  const takeover = path.join(dir, fileName === LOCK_FILE ? TAKEOVER_FILE : `${fileName}.takeover`);
  const info = newInfo(holder);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(file, info)) return { acquired: true, lock: held(file, info, null) };
    const cur = readLock(file);
    if (cur === 'missing') continue; // released between our link and our read: try again
    if (!isStale(cur)) return { acquired: false, heldBy: cur, message: describeLock(cur) };
    clearDeadTakeover(takeover);
    const tk = newInfo();
    if (!createExclusive(takeover, tk)) {
      // Someone else is taking over right now; give them a moment, then see what they end up with.
      sleepSync(2 * (attempt + 1));
      continue;
    }
    try {
      // Re-check under the takeover lock: the stale lock must still be the one we judged.
      const again = readLock(file);
      if (again === 'missing' || (again !== null && cur !== null && again.token !== cur.token)) continue;
      if (!isStale(again)) return { acquired: false, heldBy: again, message: describeLock(again) };
      removeFile(file);
      if (createExclusive(file, info)) return { acquired: true, lock: held(file, info, cur) };
    } finally {
      removeFile(takeover);
    }
  }
  const last = readLock(file);
  const heldBy = last === 'missing' ? null : last;
  return { acquired: false, heldBy, message: `${describeLock(heldBy)} (lock contended)` };
}

/**
 * Whether a live process holds the writer lock of `dir` (this one included). A missing lock, or one
 * whose owner is gone, means nobody is writing: a log that still says `running` was left by a
 * process that died. Read-only: never takes or removes the lock.
 */
export function hasLiveWriter(dir: string, fileName = LOCK_FILE): boolean {
  return liveWriter(dir, fileName) !== null;
}

/**
 * The live writer of `dir` (this process included), or null when nobody is writing it. An unreadable
 * lock counts as stale, as for acquireLock. Read-only.
 */
export function liveWriter(dir: string, fileName = LOCK_FILE): LockInfo | null {
  const cur = readLock(path.join(dir, fileName));
  return cur !== 'missing' && cur !== null && !isStale(cur) ? cur : null;
}
