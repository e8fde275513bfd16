// Which ignored files a checkpoint holds. The workspace's .gitignore files and its repository's
// info/exclude say what the user's tools leave out, not what the agent cannot delete: a checkpoint
// holds those files too, within a budget (files and bytes), each ignored entry (a file, or a folder
// git names whole) held or left out as one. What does not fit (node_modules, as a rule) is left out
// and named as over the budget; what the user's setting excludes is never held.
import { lstatSync, readdirSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { UnheldPath } from '../../../core/checkpoints/types';
import type { CheckpointLimits } from './checkpoint-limits';
import { ALWAYS_EXCLUDED_ENTRIES, type CheckpointRepo } from './checkpoint-repo';
import { runGit, splitNul } from './git-process';

export interface IgnoredSurvey {
  /** Entries no checkpoint holds, relative to the workspace (a folder ends with '/'). */
  unheld: UnheldPath[];
  /** Ignored entries held (relative; a folder ends with '/'). */
  held: string[];
  /** Gitignore patterns for what the listing of files to record leaves out. */
  leftOut: string[];
}

/** An ignored folder found over the budget, while its own mtime stays the same. */
type OverCache = Map<string, number>;

export async function surveyIgnored(
  repo: CheckpointRepo,
  limits: CheckpointLimits,
  overCache: OverCache,
): Promise<IgnoredSurvey> {
  const files = repo.excludeFiles();
  // An index that does not exist: every file is "other", whatever the store holds already.
  const empty = { ...repo.paths, indexFile: join(repo.storeDir, 'survey-index-none') };
  const list = (excludes: string[]) =>
    runGit(empty, ['ls-files', '-z', '-o', '-i', '--directory', ...excludes]).then((r) => splitNul(r.stdout));
  const all = await list([
    '--exclude-per-directory=.gitignore',
    `--exclude-from=${files.excluded}`,
    `--exclude-from=${files.ignored}`,
  ]);
  const sizes = new Map(all.map((path) => [path, sizeOf(join(repo.workspace, path), limits, overCache)]));
  const tooBig = all.filter((path) => sizes.get(path) === 'over');
  // What the setting excludes, from a walk that skips the folders already found too big for the
  // budget (a node_modules walked again costs more than the rest of the listing).
  writeFileSync(files.overBudget, tooBig.map(literalPattern).join('\n') + '\n');
  const tooBigSet = new Set(tooBig);
  // Without a setting of the user's, only Logbook's own folder is excluded: no walk needed.
  const excluded = repo.hasExcludeSetting()
    ? (await list([`--exclude-from=${files.excluded}`, `--exclude-from=${files.overBudget}`])).filter(
        (path) => !tooBigSet.has(path),
      )
    : ALWAYS_EXCLUDED_ENTRIES.filter((e) => all.includes(e));
  const unheld: UnheldPath[] = excluded.map((path) => ({ path, why: 'excluded' }));
  const isExcluded = (p: string) => excluded.some((e) => p === e || (e.endsWith('/') && p.startsWith(e)));
  const sized: { path: string; files: number; bytes: number }[] = [];
  const over: string[] = [...tooBig];
  for (const path of all) {
    const size = sizes.get(path)!;
    if (size === 'over' || isExcluded(path)) continue;
    sized.push({ path, ...size });
  }
  // Smallest first, so that one large folder leaves room for many small entries (.env files).
  sized.sort((a, b) => a.bytes - b.bytes || (a.path < b.path ? -1 : 1));
  let files_ = 0;
  let bytes = 0;
  const held: string[] = [];
  for (const e of sized) {
    if (files_ + e.files <= limits.maxIgnoredFiles && bytes + e.bytes <= limits.maxIgnoredBytes) {
      files_ += e.files;
      bytes += e.bytes;
      held.push(e.path);
    } else over.push(e.path);
  }
  over.sort();
  unheld.push(...over.map((path): UnheldPath => ({ path, why: 'over-budget' })));
  return { unheld, held, leftOut: over.map(literalPattern) };
}

/**
 * Files and bytes under an ignored entry, or 'over' once either passes the budget (the walk stops
 * there: a node_modules of 100,000 files costs the budget's worth of stats, and nothing while its
 * folder's mtime stays the same). Files over the size cap are never held, so they do not count.
 */
function sizeOf(
  abs: string,
  limits: CheckpointLimits,
  overCache: OverCache,
): { files: number; bytes: number } | 'over' {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return { files: 0, bytes: 0 }; // gone since git listed it
  }
  if (!st.isDirectory()) {
    const big = st.isFile() && st.size > limits.maxFileBytes;
    return big ? { files: 0, bytes: 0 } : { files: 1, bytes: st.isFile() ? st.size : 0 };
  }
  if (overCache.get(abs) === st.mtimeMs) return 'over';
  let files = 0;
  let bytes = 0;
  const stack = [abs];
  while (stack.length) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === '.git') continue;
      let s: Stats;
      try {
        s = lstatSync(join(dir, name));
      } catch {
        continue;
      }
      if (s.isDirectory()) {
        stack.push(join(dir, name));
        continue;
      }
      if (s.isFile() && s.size > limits.maxFileBytes) continue;
      files++;
      if (s.isFile()) bytes += s.size;
      if (files > limits.maxIgnoredFiles || bytes > limits.maxIgnoredBytes) {
        overCache.set(abs, st.mtimeMs);
        return 'over';
      }
    }
  }
  overCache.delete(abs);
  return { files, bytes };
}

/** A gitignore pattern that matches exactly `path` from the workspace's top (a folder: '/' at the end). */
export function literalPattern(path: string): string {
  // A pattern file has one pattern a line and no escape for a line break: `?` stands for it, so a
  // name with one cannot split into patterns of its own (a line `*` would leave out everything).
  const escaped = path.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`).replace(/[\r\n]/g, '?');
  return `/${escaped}`;
}
