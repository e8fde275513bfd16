// A checkpoint's scan of the workspace: the store's index is brought up to date with the files
// (only what git lists as new or changed by stat is looked at) and its tree written. Ignored files
// are listed like the others unless they are over the budget (ignored-survey.ts); files over the
// size limit are skipped and listed; a workspace over the file or byte limits is refused.
import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  CheckpointUnavailableError,
  type SkippedFile,
  type UnheldPath,
} from '../../../core/checkpoints/types';
import type { CheckpointLimits } from './checkpoint-limits';
import type { CheckpointRepo } from './checkpoint-repo';
import { reachable } from './checkpoint-restore';
import { runGit, splitNul, type GitPaths } from './git-process';
import { failureReason, formatBytes, nulJoin } from './git-text';
import { surveyIgnored } from './ignored-survey';

/** What a checkpoint taken now would write, and what it would not hold. */
export interface WorkspaceSurvey {
  add: string[];
  drop: string[];
  skipped: SkippedFile[];
  /** Relative to the workspace; a folder ends with '/'. */
  unheld: UnheldPath[];
  /** Ignored entries held within the budget (relative; a folder ends with '/'). */
  heldIgnored: string[];
}

/**
 * Lists what a checkpoint would record and what it would leave out, without writing to the index
 * (a coverage check before each action is this and nothing more). Refuses a workspace over the
 * file or byte limits. `overCache`: the store's memory of ignored folders found over the budget.
 */
export async function surveyWorkspace(
  repo: CheckpointRepo,
  limits: CheckpointLimits,
  overCache: Map<string, number>,
): Promise<WorkspaceSurvey> {
  await repo.init();
  const guess = repo.lastLeftOut;
  repo.writeExcludes(guess ?? []);
  const listing = () =>
    Promise.all([
      listChanged(repo.storeDir, repo.paths, '', repo.excludeFiles()),
      // Files the index holds that are left out now (a held folder grew over the budget, the setting
      // changed): they leave the next checkpoint, so a restore never writes their old content.
      runGit(repo.paths, ['ls-files', '-z', '-c', '-i', `--exclude-from=${repo.excludeFiles().exclude}`]),
    ]);
  // The listing runs beside the survey, with what the last survey left out (it seldom changes);
  // again after it only when that changed.
  const [ignored, early] = await Promise.all([
    surveyIgnored(repo, limits, overCache),
    guess ? listing() : Promise.resolve(undefined),
  ]);
  let lists = early;
  if (!lists || ignored.leftOut.join('\n') !== guess?.join('\n')) {
    repo.writeExcludes(ignored.leftOut);
    lists = await listing();
  }
  repo.lastLeftOut = ignored.leftOut;
  const [listed, leftOutHeld] = lists;
  const add: string[] = [];
  const drop: string[] = splitNul(leftOutHeld.stdout);
  const leftOut = new Set(drop); // `-m` lists them too when they changed: never added back
  const skipped: SkippedFile[] = [];
  let newBytes = 0;
  let untracked = 0;
  for (const { path, tracked } of listed) {
    if (leftOut.has(path)) continue;
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
  skipped.sort((a, b) => (a.path < b.path ? -1 : 1));
  const unheld = [...ignored.unheld, ...skipped.map((s): UnheldPath => ({ path: s.path, why: 'too-large' }))];
  return { add, drop, skipped, unheld, heldIgnored: ignored.held };
}

/**
 * Brings the store's index up to date with the workspace and writes its tree. Only what git
 * lists as new or changed by stat is looked at; nested repositories are walked as folders.
 */
export async function scanWorkspace(
  repo: CheckpointRepo,
  limits: CheckpointLimits,
  overCache: Map<string, number>,
): Promise<{ tree: string } & Pick<WorkspaceSurvey, 'skipped' | 'unheld' | 'heldIgnored'>> {
  const { add, drop, skipped, unheld, heldIgnored } = await surveyWorkspace(repo, limits, overCache);
  try {
    if (drop.length) await repo.git(['update-index', '--force-remove', '-z', '--stdin'], nulJoin(drop));
    // The first checkpoint writes every file: stored without zlib it takes half the time (later
    // ones write few objects, compressed).
    const bulk = repo.indexEntries() === 0 ? ['core.looseCompression=0'] : [];
    // --refresh first: files whose stat changed but not their bytes (a checkout, a copy back, a
    // touch) get their new stat in the index, so later listings do not hash them again each time.
    await repo.git(
      ['update-index', '-q', '--refresh', '--add', '--remove', '--replace', '-z', '--stdin'],
      nulJoin(add),
      bulk,
    );
  } catch (err) {
    throw new Error(`The workspace's files could not be recorded: ${failureReason(err)}.`);
  }
  const tree = (await repo.git(['write-tree'])).stdout.toString().trim();
  return { tree, skipped, unheld, heldIgnored };
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
  excludes: { exclude: string; excluded: string },
): Promise<{ path: string; tracked: boolean }[]> {
  const out: { path: string; tracked: boolean }[] = [];
  const nested = prefix !== '';
  // Everything but what the store leaves out: .gitignore'd files are held (the top folder's within
  // the budget; a nested repository's as the top listing sees them once the index holds its files).
  const args = nested
    ? ['ls-files', '-z', '-o', `--exclude-from=${excludes.excluded}`]
    : ['ls-files', '-z', '-t', '-o', '-m', `--exclude-from=${excludes.exclude}`];
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
          excludes,
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
