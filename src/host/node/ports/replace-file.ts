// Writing a file without writing through it. A workspace file may be a hard link to a file
// elsewhere (`ln /etc/x ws/x`): writing it in place would change that file too. So new content goes
// to a temporary file in the same folder, which is then renamed over the path: the path names a
// new file, and the other links keep the old content. A symlink is followed (its target is
// replaced, the link stays), as the risk rules judged it.
import { randomBytes } from 'node:crypto';
import { chmod, chown, constants, copyFile, lstat, rename, rm, utimes, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { realPath } from '../../../core/security/resolve-path';
import { PathMovedError } from '../../../core/tools/ports';

/**
 * Replaces a file's content (keeping its mode), or creates it; never writes into the old file.
 * `expectedReal`: where the path must still lead (see FilePort.writeText), or PathMovedError.
 */
export async function replaceFile(path: string, text: string, expectedReal?: string): Promise<void> {
  const target = realPath(path);
  if (expectedReal !== undefined && target !== expectedReal)
    throw new PathMovedError(path, expectedReal, target);
  const old = await lstatOrUndefined(target);
  // Only a regular file is replaced. A device or a pipe is written as before (renaming over
  // /dev/null would replace the device); writeFile refuses a folder.
  if (old && !old.isFile()) return writeFile(target, text, 'utf8');
  // Until the mode is copied, the new file is readable by its owner only: the old one may be private.
  const mode = old ? 0o600 : 0o666;
  await replaceWith(target, old, (temp) => writeFile(temp, text, { encoding: 'utf8', mode, flag: 'wx' }));
}

/**
 * Makes a file with other hard links a file of its own, same content, mode and times, so that a
 * later in-place write (VS Code's save) reaches no other name. True when it had other links.
 */
export async function separateHardLink(path: string): Promise<boolean> {
  const target = realPath(path);
  const old = await lstatOrUndefined(target);
  if (!old?.isFile() || old.nlink < 2) return false;
  await replaceWith(target, old, async (temp) => {
    await copyFile(target, temp, constants.COPYFILE_EXCL);
    // The same modification time, so an editor holding the file does not take it as changed.
    await utimes(temp, old.atime, old.mtime);
  });
  return true;
}

async function replaceWith(
  target: string,
  old: Stats | undefined,
  write: (temp: string) => Promise<void>,
): Promise<void> {
  const temp = join(
    dirname(target),
    `.${basename(target).slice(0, 80)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await write(temp);
    if (old) {
      // The owner too where allowed (as root); otherwise the new file is the writer's, as any
      // editor that saves by renaming leaves it. chown first: it may clear setuid bits.
      await chown(temp, old.uid, old.gid).catch(() => undefined);
      await chmod(temp, old.mode & 0o7777);
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}
