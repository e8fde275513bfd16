// A hunk rejected in the review of a task, recorded where apply reads the task: the file, as the
// review left it in the task's worktree, committed on the task's branch. So `logbook apply` and
// the editor's apply bring exactly the accepted change, and the branch's history says what was
// rejected, by whom and when.
import type { TaskRecord } from '../../../core/worktrees';
import { rejectionCommitMessage } from '../../../core/worktrees';
import { identity } from './apply-task';
import { git, gitTry } from './git-run';

/**
 * Commits `path` (relative to the task's worktree) as it is now, on the task's branch; the new
 * commit's id, or null when the file holds nothing the branch does not have already.
 */
export function commitRejection(
  task: TaskRecord,
  path: string,
  wholeFile: boolean,
  where?: string,
): string | null {
  const cwd = task.worktree;
  // The path is a name, never a pattern: a file the task named `*.txt` is that file alone.
  const literal = { GIT_LITERAL_PATHSPECS: '1' };
  git(cwd, ['add', '--all', '--', path], literal);
  if (gitTry(cwd, ['diff', '--cached', '--quiet', '--', path], literal).code === 0) return null;
  const [subject, body] = rejectionCommitMessage(task, path, wholeFile, where);
  // Only this path: anything else the user changed meanwhile stays as it is, uncommitted.
  const args = ['commit', '--quiet', '--no-verify', '-m', subject, '-m', body, '--', path];
  git(cwd, [...identity(cwd), ...args], literal);
  return git(cwd, ['rev-parse', 'HEAD']).trim();
}
