// A checkpoint's scan of the workspace: the store's index is brought up to date with the files
// (only what git lists as new or changed by stat is looked at) and its tree written. Files over
// the size limit are skipped and listed; a workspace over the file or byte limits is refused.
import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointUnavailableError, type SkippedFile } from '../../../core/checkpoints/types';
import type { CheckpointLimits } from './checkpoint-limits';
import type { CheckpointRepo } from './checkpoint-repo';
import { reachable } from './checkpoint-restore';
import { runGit, splitNul, type GitPaths } from './git-process';
import { failureReason, formatBytes, nulJoin } from './git-text';

/**
 * Brings the store's index up to date with the workspace and writes its tree. Only what git
 * lists as new or changed by stat is looked at; nested repositories are walked as folders.
 */
export async function scanWorkspace(
  repo: CheckpointRepo,
  limits: CheckpointLimits,
): Promise<{ tree: string; skipped: SkippedFile[] }> {
  await repo.init();
  repo.writeExcludes();
  const listed = await listChanged(repo.storeDir, repo.paths, '');
  const add: string[] = [];
  const drop: string[] = [];
  const skipped: SkippedFile[] = [];
  let newBytes = 0;
  let untracked = 0;
  for (const { path, tracked } of listed) {
    // A folder on the way became a link (or a file): the recorded file is gone from here, and
    // git refuses to add a path "beyond a symbolic link". The link itself is listed on its own.
    if (!reachable(repo.workspace, path)) {
      if (tracked) drop.push(path);
      continue;
    }
    let st;
    try {
      st = lstatSync(join(repo.workspace, path));
    } catch {
      add.push(path); // gone: update-index --remove takes it out
      continue;
    }
    if (st.isDirectory()) {
      if (tracked) drop.push(path); // a recorded file became a folder: its files are listed on their own
      continue;
    }
    if (st.isFile() && st.size > limits.maxFileBytes) {
      skipped.push({ path, size: st.size });
      if (tracked) drop.push(path);
      continue;
    }
    if (!tracked) untracked++;
    if (st.isFile()) newBytes += st.size;
    add.push(path);
  }
  const total = repo.indexEntries() + untracked;
  if (total > limits.maxFiles) {
    throw new CheckpointUnavailableError(
      `The workspace has ${total} files to record, more than checkpoints take (${limits.maxFiles}). ` +
        'Add large generated folders to .gitignore or logbook.checkpoints.exclude.',
    );
  }
  if (newBytes > limits.maxNewBytes) {
    throw new CheckpointUnavailableError(
      `The workspace has ${formatBytes(newBytes)} of new or changed files to record, more than a checkpoint ` +
        `takes (${formatBytes(limits.maxNewBytes)}). Add large generated folders to .gitignore or ` +
        'logbook.checkpoints.exclude.',
    );
  }
  try {
    if (drop.length) await repo.git(['update-index', '--force-remove', '-z', '--stdin'], nulJoin(drop));
    // The first checkpoint writes every file: stored without zlib it takes half the time (later
    // ones write few objects, compressed).
    const bulk = repo.indexEntries() === 0 ? ['core.looseCompression=0'] : [];
    if (add.length) {
      await repo.git(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], nulJoin(add), bulk);
    }
  } catch (err) {
    throw new Error(`The workspace's files could not be recorded: ${failureReason(err)}.`);
  }
  const tree = (await repo.git(['write-tree'])).stdout.toString().trim();
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { tree, skipped };
}

/**
 * Paths that are new, changed or gone since the index last saw them. A nested repository (or
 * submodule) shows as one `dir/` entry; its files are listed from its own work tree, so they are
 * recorded as files, never as a link to the other repository.
 */
async function listChanged(
  storeDir: string,
  paths: GitPaths,
  prefix: string,
): Promise<{ path: string; tracked: boolean }[]> {
  const out: { path: string; tracked: boolean }[] = [];
  const nested = prefix !== '';
  const args = nested
    ? ['ls-files', '-z', '-o', '--exclude-standard']
    : ['ls-files', '-z', '-t', '-o', '-m', '--exclude-standard'];
  const r = await runGit(paths, args);
  for (const entry of splitNul(r.stdout)) {
    const tracked = !nested && entry.startsWith('C ');
    const path = nested ? entry : entry.slice(2);
    if (path.endsWith('/')) {
      // A nested repository: list it with an empty index (every file is "other"); the stat cache
      // of the main index still spares re-hashing its unchanged files.
      const dir = path.slice(0, -1);
      out.push(
        ...(await listChanged(
          storeDir,
          { ...paths, workTree: join(paths.workTree, dir), indexFile: join(storeDir, 'nested-index') },
          `${prefix}${dir}/`,
        )),
      );
      continue;
    }
    out.push({ path: prefix + path, tracked });
  }
  if (!nested) {
    // Files of nested repositories the index holds: new and changed ones came from the walk above;
    // `-m` on the main index already listed the changed and deleted ones.
    return dedupe(out);
  }
  rmSync(join(storeDir, 'nested-index'), { force: true });
  return out;
}

function dedupe(list: { path: string; tracked: boolean }[]): { path: string; tracked: boolean }[] {
  const seen = new Map<string, { path: string; tracked: boolean }>();
  for (const e of list) {
    const had = seen.get(e.path);
    seen.set(e.path, { path: e.path, tracked: e.tracked || (had?.tracked ?? false) });
  }
  return [...seen.values()];
}
