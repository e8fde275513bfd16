// Bringing a task's change into the user's working tree, as a careful reviewer would: the task's
// uncommitted work is first committed on its own branch (in its worktree, never in the user's
// tree), then the branch is merged with a merge commit. The user's uncommitted changes stop it
// unless forced, and even forced, git still refuses to overwrite a file the user changed. A
// conflict is never resolved here: git's conflict state is left for the user, and said so.
import { existsSync } from 'node:fs';
import type { TaskRecord } from '../../../core/worktrees';
import { git, gitTry, lines } from './git-run';

export type ApplyResult =
  | { kind: 'merged'; commit: string; committedPending: boolean; files: string[] }
  | { kind: 'nothing'; committedPending: boolean }
  | { kind: 'conflict'; conflicted: string[]; committedPending: boolean };

/** Logbook's name on a commit when the user's git has none configured. */
const FALLBACK_IDENTITY = ['-c', 'user.name=Logbook', '-c', 'user.email=logbook@localhost'];

export function identity(cwd: string): string[] {
  const has = (k: string) => gitTry(cwd, ['config', '--get', k]).stdout.trim() !== '';
  return has('user.name') && has('user.email') ? [] : FALLBACK_IDENTITY;
}

/**
 * Commits what the task left uncommitted in its worktree, on its branch; whether there was any.
 * `by`: what commits it (apply, or the review before it), said in the commit's body.
 */
export function commitPending(task: TaskRecord, by = 'logbook apply'): boolean {
  if (!existsSync(task.worktree)) return false;
  if (git(task.worktree, ['status', '--porcelain', '--untracked-files=all']).trim() === '') return false;
  git(task.worktree, ['add', '--all']);
  git(task.worktree, [
    ...identity(task.worktree),
    'commit',
    '--quiet',
    '--no-verify',
    '-m',
    `Logbook task ${task.name}: the task's uncommitted work`,
    '-m',
    `Committed by ${by} from the worktree of ${task.branch}.\nTask: ${task.task}`,
  ]);
  return true;
}

/** Why `into` cannot take a merge now (a merge or rebase under way, changes without --force). */
export function applyObstacle(into: string, force: boolean): string | null {
  const gitDir = git(into, ['rev-parse', '--absolute-git-dir']).trim();
  for (const [file, what] of [
    ['MERGE_HEAD', 'a merge'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REBASE_HEAD', 'a rebase'],
  ] as const) {
    if (existsSync(`${gitDir}/${file}`))
      return `${into} is in the middle of ${what}; finish or abort it first.`;
  }
  if (force) return null;
  const dirty = lines(git(into, ['status', '--porcelain', '--untracked-files=no']));
  if (dirty.length > 0)
    return (
      `${into} has uncommitted changes (${dirty.length} file(s)); commit or stash them first, ` +
      'or pass --force (git still refuses to overwrite a file you changed that the task changed too).'
    );
  return null;
}

export function applyTask(task: TaskRecord, into: string): ApplyResult {
  const committedPending = commitPending(task);
  const head = git(into, ['rev-parse', 'HEAD']).trim();
  const behind = git(into, ['rev-list', '--count', `${head}..${task.branch}`]).trim();
  if (behind === '0') return { kind: 'nothing', committedPending };
  const files = lines(git(into, ['diff', '--name-only', `${head}...${task.branch}`]));
  const merged = gitTry(into, [
    ...identity(into),
    'merge',
    '--no-ff',
    '--no-edit',
    '-m',
    `Merge Logbook task ${task.name} (${task.branch})`,
    task.branch,
  ]);
  if (merged.code === 0)
    return { kind: 'merged', commit: git(into, ['rev-parse', 'HEAD']).trim(), committedPending, files };
  const conflicted = lines(git(into, ['diff', '--name-only', '--diff-filter=U']));
  if (conflicted.length > 0) return { kind: 'conflict', conflicted, committedPending };
  const said = (merged.stderr || merged.stdout).trim();
  throw new Error(`git merge of ${task.branch} stopped: ${said}`);
}
