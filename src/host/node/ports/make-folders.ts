// Creating the folders a new file goes into. Node's `mkdir(…, { recursive: true })` never returns
// when the kernel answers ENOENT for a folder whose parent exists (it keeps retrying the parent):
// `/proc/self/outside` is such a place. So the missing folders are made one at a time, from the
// top, and the first one that cannot be made ends it with an error that names it.
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const kind = await kindOf(at);
    if (kind === 'directory') break;
    if (kind === 'other') throw new Error(`${at} is not a folder, so ${dir} cannot be created`);
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      await mkdir(folder);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && (await kindOf(folder)) === 'directory') continue;
      throw new Error(
        `the folder ${folder} cannot be created (${code ?? (err as Error).message}); nothing was written`,
      );
    }
  }
}

async function kindOf(path: string): Promise<'directory' | 'other' | undefined> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'other';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}
