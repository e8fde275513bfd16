// Whole-file writes that never leave a half-written file under the final name:
// write a temp file in the same directory, fsync it, rename it over the target, fsync the directory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const TMP_SUFFIX = '.tmp';

function tmpName(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${crypto.randomBytes(4).toString('hex')}${TMP_SUFFIX}`,
  );
}

export function fsyncDirSync(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function writeFileDurable(file: string, data: string | Uint8Array): void {
  const tmp = tmpName(file);
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDirSync(path.dirname(file));
}

/**
 * The same write (temp, rename) without its syncs: no half-written file under the final name while
 * the machine runs, but a power cut may lose it or leave it torn. For files a reader checks and can
 * do without (a snapshot), synced later as a group by `fsyncFilesSync`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = tmpName(file);
  try {
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * fsyncs each of `files` that still exists (one removed since is skipped), all at once, then their
 * folder `dir`. Syncs in flight together share the file system's journal commits, where one after
 * the other each waits for its own.
 */
export async function fsyncFiles(dir: string, files: Iterable<string>): Promise<void> {
  await Promise.all([...files].map(fsyncIfExists));
  fsyncDirSync(dir);
}

async function fsyncIfExists(file: string): Promise<void> {
  let h: fs.promises.FileHandle;
  try {
    h = await fs.promises.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Async version; `syncDir` false skips the directory fsync (the rename may then be lost in a power cut). */
export async function writeFileDurableAsync(
  file: string,
  data: string | Uint8Array,
  syncDir: boolean,
): Promise<void> {
  const tmp = tmpName(file);
  const h = await fs.promises.open(tmp, 'w');
  try {
    await h.writeFile(data);
    await h.sync();
  } catch (err) {
    await h.close();
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await h.close();
  try {
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  if (syncDir) {
    const d = await fs.promises.open(path.dirname(file), 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  }
}

/**
 * How old a temp file must be before a writer that cannot prove it unused removes it. A write
 * takes milliseconds, so one left untouched for an hour was left by a process that died between
 * writing and renaming it. Should its writer only have been suspended that long, its rename fails
 * and says so, and the target keeps what it held before: nothing recorded is lost.
 */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

export interface TempSweep {
  /** Only files last modified longer ago than this; 0 when no other writer can be using them. */
  olderThanMs?: number;
  now?: number;
}

/** `.<name>.<random>.tmp`, the temp files `writeFileDurable` writes beside its targets. */
export function isDurableTempName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(TMP_SUFFIX);
}

/** The temp files of target `base`: `<base>.<random>.tmp`, or `.<base>.<random>.tmp` as `writeFileDurable` names them. */
export function tempsOf(base: string): (name: string) => boolean {
  return (name) => (name.startsWith(`${base}.`) || name.startsWith(`.${base}.`)) && name.endsWith(TMP_SUFFIX);
}

/**
 * Removes the temp files in `dir` that `isTemp` names, left by a writer that died before renaming
 * them, and returns their names. A missing folder has none; a file that is gone or cannot be
 * removed is skipped (the next sweep tries again).
 */
export function removeStaleTempFiles(
  dir: string,
  isTemp: (name: string) => boolean,
  sweep: TempSweep = {},
): string[] {
  const { olderThanMs = STALE_TEMP_AGE_MS, now = Date.now() } = sweep;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!isTemp(name)) continue;
    const file = path.join(dir, name);
    try {
      if (olderThanMs > 0 && now - fs.statSync(file).mtimeMs <= olderThanMs) continue;
      fs.unlinkSync(file);
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

const sweptDirs = new Set<string>();

/**
 * `removeStaleTempFiles` the first time this process writes into `dir`: writers that write there
 * often (a head record per sync, a ref per checkpoint) pay for one listing, not one per write.
 */
export function removeStaleTempFilesOnce(dir: string, isTemp: (name: string) => boolean): void {
  const key = path.resolve(dir);
  if (sweptDirs.has(key)) return;
  sweptDirs.add(key);
  removeStaleTempFiles(dir, isTemp);
}
