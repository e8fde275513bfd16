// Putting a checkpoint's files back into the workspace: what differs is written from a scratch
// index of the checkpoint's tree, what it did not hold is deleted, and nothing is ever written or
// deleted through a symbolic link.
import { lstatSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CheckpointChange } from '../../../core/checkpoints/types';
import type { CheckpointRepo } from './checkpoint-repo';
import { runGit } from './git-process';
import { nulJoin } from './git-text';

export async function applyChanges(
  repo: Pick<CheckpointRepo, 'paths' | 'storeDir' | 'workspace'>,
  target: string,
  changes: readonly CheckpointChange[],
): Promise<void> {
  const gone = changes.filter((c) => c.status === 'D').map((c) => c.path);
  const write = changes.filter((c) => c.status !== 'D').map((c) => c.path);
  // checkout-index writes content, mode and links from a scratch index of the target's tree,
  // prepared before any file is touched: a store that cannot do it changes nothing.
  const scratch = { ...repo.paths, indexFile: join(repo.storeDir, 'restore-index') };
  try {
    if (write.length) await runGit(scratch, ['read-tree', target]);
    // Never through a link: a path behind one is not the file the checkpoint recorded.
    for (const p of gone) if (reachable(repo.workspace, p)) rmSync(join(repo.workspace, p), { force: true });
    pruneEmptyDirs(repo.workspace, gone);
    if (write.length) {
      for (const p of write) clearWay(repo.workspace, p);
      await runGit(scratch, ['checkout-index', '-f', '-z', '--stdin'], { input: nulJoin(write) });
    }
  } finally {
    rmSync(scratch.indexFile, { force: true });
  }
}

/**
 * Makes room for `path`: a file or link where the target has one of its folders goes (so nothing
 * is written through a link), and so does a folder where the target has the file.
 */
function clearWay(workspace: string, path: string): void {
  const parts = path.split('/');
  let abs = workspace;
  for (const [i, part] of parts.entries()) {
    abs = join(abs, part);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      return; // missing: checkout-index creates the rest
    }
    const last = i === parts.length - 1;
    if (last ? st.isDirectory() : !st.isDirectory()) {
      rmSync(abs, { recursive: true, force: true });
      return;
    }
  }
}

/** True when `path` leads to where it says: no folder on the way is a link or a file. */
export function reachable(workspace: string, path: string): boolean {
  const parts = path.split('/');
  let abs = workspace;
  for (const part of parts.slice(0, -1)) {
    abs = join(abs, part);
    try {
      if (!lstatSync(abs).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Folders a restore emptied go too, as they would with the files' deletion by git. */
function pruneEmptyDirs(workspace: string, deleted: readonly string[]): void {
  const dirs = new Set<string>();
  for (const p of deleted) {
    for (let d = dirname(p); d !== '.' && d !== ''; d = dirname(d)) dirs.add(d);
  }
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(join(workspace, d));
    } catch {
      // Not empty (or not there): stays.
    }
  }
}
