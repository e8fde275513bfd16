// What `logbook tasks --prune` offers, and does only when the user says yes: git's bookkeeping of
// worktree folders that are gone (`git worktree prune`), and the tasks whose worktree is gone. A
// task whose branch still holds work beyond its base keeps that branch (apply or discard it); one
// with nothing on it is marked discarded and its empty branch deleted. Logs are never touched.
import { existsSync } from 'node:fs';
import type { TaskRecord } from '../../../core/worktrees';
import { git, gitTry, lines } from './git-run';
import type { TaskStore } from './task-store';

export interface PrunePlan {
  /** git's words for each worktree entry it would prune. */
  stale: string[];
  /** Tasks whose worktree is gone and whose branch holds nothing beyond the base. */
  emptyMissing: TaskRecord[];
  /** Tasks whose worktree is gone but whose branch holds commits: kept. */
  keptMissing: { task: TaskRecord; commits: number }[];
}

export function prunePlan(store: TaskStore): PrunePlan {
  const repo = store.repo.top;
  // git says what it would prune on stderr.
  const dry = gitTry(repo, ['worktree', 'prune', '--dry-run', '--verbose']);
  const stale = lines(dry.stdout + dry.stderr);
  const plan: PrunePlan = { stale, emptyMissing: [], keptMissing: [] };
  for (const task of store.list()) {
    if (task.status !== 'active' || existsSync(task.worktree)) continue;
    const count = gitTry(repo, ['rev-list', '--count', `${task.base}..refs/heads/${task.branch}`]);
    const commits = count.code === 0 ? Number(count.stdout.trim()) : 0;
    if (commits > 0) plan.keptMissing.push({ task, commits });
    else plan.emptyMissing.push(task);
  }
  return plan;
}

export function applyPrunePlan(store: TaskStore, plan: PrunePlan): void {
  const repo = store.repo.top;
  git(repo, ['worktree', 'prune']);
  for (const task of plan.emptyMissing) {
    if (gitTry(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${task.branch}`]).code === 0)
      git(repo, ['branch', '--quiet', '-D', task.branch]);
    store.put({ ...task, status: 'discarded', updated: new Date().toISOString() });
  }
}
