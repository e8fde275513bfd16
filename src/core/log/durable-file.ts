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
