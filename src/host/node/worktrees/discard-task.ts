// Discarding a task: its worktree and branch go (what the task did is in its log, which stays);
// git's own bookkeeping of a worktree folder that is already gone is pruned with it.
import { existsSync } from 'node:fs';
import type { TaskRecord } from '../../../core/worktrees';
import { git, gitTry } from './git-run';

export interface Discarded {
  worktreeRemoved: boolean;
  branchDeleted: boolean;
}

export function discardTask(task: TaskRecord, repo: string): Discarded {
  let worktreeRemoved = false;
  if (existsSync(task.worktree)) {
    git(repo, ['worktree', 'remove', '--force', '--force', task.worktree]);
    worktreeRemoved = true;
  } else {
    git(repo, ['worktree', 'prune']);
  }
  const branchDeleted =
    gitTry(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${task.branch}`]).code === 0 &&
    (git(repo, ['branch', '--quiet', '-D', task.branch]), true);
  return { worktreeRemoved, branchDeleted };
}
