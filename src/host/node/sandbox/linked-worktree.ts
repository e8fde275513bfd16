// A workspace that is a linked git worktree (its `.git` is a file, `gitdir: <common>/worktrees/<id>`)
// keeps its commits in a repository whose shared git folder lies outside it. A worktree task must be
// able to commit there, and do nothing else to the repository: so the sandbox makes writable only
// what a commit on the task's own branches writes, and keeps the rest of the shared folder, the main
// working tree and the other worktrees read-only:
// - the worktree's own admin folder (`HEAD`, `index`, `logs/HEAD`), but not the files there that
//   point git elsewhere or configure it (`commondir`, `gitdir`, `config.worktree`, `locked`, and
//   what runs-later.ts names in a git folder: hooks, a submodule's config);
// - `objects/`, where a commit's new objects go, but not `objects/pack/` (the packed history, which
//   a command could otherwise delete) nor `objects/info/` (`alternates` would add another store);
// - the branch namespace `refs/heads/logbook/` and its reflogs: git writes a `.lock` beside a ref
//   and renames it, so whole folders are bound, made first where missing.
// The shared `config`, `hooks/`, `info/`, `packed-refs`, `HEAD`, other branches' refs and other
// worktrees stay read-only, as does the main working tree (it is no workspace folder).
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RUNS_LATER } from '../../../core/security/runs-later';
import { expandUnder } from './held-paths';

/** The branch namespace a worktree task commits to: `refs/heads/logbook/<name>`. */
export const TASK_BRANCH_FOLDER = 'logbook';

export interface LinkedWorktreeGit {
  /** The worktree's admin folder, `<common>/worktrees/<id>`. */
  gitDir: string;
  /** The repository's shared git folder. */
  common: string;
  /** Folders outside the workspace bound writable onto themselves. */
  writable: string[];
  /** Paths inside `writable` that stay read-only. */
  held: string[];
  /** Shown read-only even where a hidden home folder would empty it (git reads its config, refs, hooks). */
  readable: string[];
}

type Kind = 'dir' | 'file' | undefined;

function kindOf(p: string): Kind {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Where a linked worktree's git folders are, or undefined when `ws` is not one (a plain repository,
 * a submodule's `.git` file, or a pointer whose admin folder does not point back at this worktree:
 * then nothing outside the workspace becomes writable).
 */
export function findLinkedWorktree(ws: string): { gitDir: string; common: string } | undefined {
  const dotGit = join(ws, '.git');
  if (kindOf(dotGit) !== 'file') return undefined;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
  if (!pointer) return undefined;
  const gitDir = real(resolve(ws, pointer[1]!));
  if (!gitDir || kindOf(gitDir) !== 'dir') return undefined;
  const commonText = readText(join(gitDir, 'commondir'))?.trim();
  if (!commonText) return undefined;
  const common = real(resolve(gitDir, commonText));
  if (!common || dirname(gitDir) !== join(common, 'worktrees')) return undefined;
  const back = readText(join(gitDir, 'gitdir'))?.trim();
  if (!back || real(resolve(gitDir, back)) !== real(dotGit)) return undefined;
  if (kindOf(join(common, 'objects')) !== 'dir') return undefined;
  return { gitDir, common };
}

/** The folders of the shared `.git` a commit in the worktree writes: admin folder, objects, branch folders. */
export function linkedWorktreeWritable(found: {
  gitDir: string;
  common: string;
}): [string, string, string, string] {
  const { gitDir, common } = found;
  return [
    gitDir,
    join(common, 'objects'),
    join(common, 'refs', 'heads', TASK_BRANCH_FOLDER),
    join(common, 'logs', 'refs', 'heads', TASK_BRANCH_FOLDER),
  ];
}

/**
 * The mounts a writable launch needs for a linked worktree at `ws`, making on disk what they need
 * first: the task's branch folders, `objects/pack` and `objects/info`, and an empty
 * `config.worktree` (the same to git as none) so that a command cannot put one there.
 */
export function linkedWorktreeGit(ws: string): LinkedWorktreeGit | undefined {
  const found = findLinkedWorktree(ws);
  if (!found) return undefined;
  const { gitDir, common } = found;
  const [, objects, refs, logs] = linkedWorktreeWritable(found);
  for (const dir of [refs, logs, join(objects, 'pack'), join(objects, 'info')])
    mkdirSync(dir, { recursive: true });
  const configWorktree = join(gitDir, 'config.worktree');
  if (!kindOf(configWorktree)) closeSync(openSync(configWorktree, 'a'));

  const held = new Set<string>([join(objects, 'pack'), join(objects, 'info'), configWorktree]);
  for (const name of ['commondir', 'gitdir', 'locked']) {
    if (kindOf(join(gitDir, name))) held.add(join(gitDir, name));
  }
  for (const e of RUNS_LATER.filter((r) => r.pattern.startsWith('.git/'))) {
    const segments = e.pattern.replace(/\/$/, '').split('/').slice(1);
    for (const p of expandUnder(gitDir, segments).found) held.add(p);
  }
  return {
    gitDir,
    common,
    writable: linkedWorktreeWritable(found),
    held: [...held],
    readable: [common],
  };
}
