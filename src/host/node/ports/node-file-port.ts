// FilePort on the local disk (CLI, benchmarks, tests). No editor buffers here: the disk is the truth.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type FilePort, PathMovedError, type WriteExpectation } from '../../../core/tools/ports';
import { realPath } from '../../../core/security/resolve-path';
import { makeFolders } from './make-folders';
import { replaceFile } from './replace-file';

export class NodeFilePort implements FilePort {
  readonly roots: readonly string[];

  constructor(roots: readonly string[]) {
    this.roots = roots.map((root) => resolve(root));
  }

  async readText(path: string): Promise<string | undefined> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async writeText(path: string, text: string, expect?: WriteExpectation): Promise<void> {
    // Checked before folders are made (they would be made where the path leads) and again right
    // before the rename.
    if (expect) stillLeadsTo(path, expect);
    await makeFolders(dirname(path));
    // A new file renamed over the path: a hard link to a file elsewhere is not written through.
    await replaceFile(path, text, expect?.real);
  }

  async delete(path: string, expect?: WriteExpectation): Promise<void> {
    if (expect) stillLeadsTo(path, expect);
    await rm(path, { force: true });
  }

  async stat(path: string): Promise<{ type: 'file' | 'directory'; size: number } | undefined> {
    try {
      const info = await stat(path);
      return { type: info.isDirectory() ? 'directory' : 'file', size: info.size };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async list(path: string): Promise<string[]> {
    const entries = await readdir(path, { withFileTypes: true });
    const names = await Promise.all(
      entries.map(async (entry) => {
        let isDirectory = entry.isDirectory();
        // A symlink to a directory lists as a directory, like `ls -F` after following it.
        if (entry.isSymbolicLink())
          isDirectory = (await this.stat(resolve(path, entry.name)))?.type === 'directory';
        return isDirectory ? `${entry.name}/` : entry.name;
      }),
    );
    return names.sort();
  }
}

function stillLeadsTo(path: string, expect: WriteExpectation): void {
  const now = realPath(path);
  if (now !== expect.real) throw new PathMovedError(path, expect.real, now);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
