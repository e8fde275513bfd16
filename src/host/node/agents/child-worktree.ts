// A delegated agent whose definition says `isolation: worktree` works in a git worktree of its own:
// a branch `logbook/<parent>-<agent>-<child>` made from the workspace's HEAD, checked out where
// worktree tasks live, outside the user's working tree (`<worktrees.dir>/<repo-key>/.agents/`), so
// two writers never share files.
// Its commands run in a worktree task's sandbox there (sandbox/linked-worktree.ts); what it leaves
// (commits on its branch, changes not committed) is told to its parent with its final message. The
// same child opened again (resumed, or for a decision) finds its worktree where it was.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoKey, repositoryAt } from '../worktrees/task-store';

export interface ChildWorktree {
  /** The worktree's folder. */
  dir: string;
  /** The child's workspace: where its parent's lies in the repository, in the worktree. */
  workspace: string;
  branch: string;
  /** The commit it started from. */
  base: string;
}

/** Git on the host, where the child's worktree may hold what a command wrote: no hooks, no fsmonitor. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-C', cwd, ...args],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
}

/** A branch name's part from an id or name: lowercase letters, digits and `-`. */
function part(s: string, max: number): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, max) || 'x'
  );
}

/**
 * The child's worktree, made on first use. Throws, saying why, when the workspace is not in a git
 * repository with a commit: the child does not run rather than share its parent's folder.
 */
export function childWorktree(
  workspace: string,
  parentId: string,
  agentName: string,
  childId: string,
  /** Where worktree tasks live (worktreesRoot): the child's folder is under its repository's. */
  root: string,
): ChildWorktree {
  let top: string;
  let head: string;
  try {
    top = git(workspace, 'rev-parse', '--show-toplevel');
    head = git(workspace, 'rev-parse', '--verify', 'HEAD');
  } catch {
    throw new Error(
      `The agent "${agentName}" works in a git worktree of its own (isolation: worktree), but ${workspace} is not in a git repository with a commit.`,
    );
  }
  const leaf = `${part(parentId, 8)}-${part(agentName, 40)}-${part(childId, 8)}`;
  const branch = `logbook/${leaf}`;
  const dir = join(root, repoKey(repositoryAt(top)), '.agents', leaf);
  const workspaceIn = join(dir, relative(top, realpathSync(workspace)));
  if (existsSync(join(dir, '.git'))) {
    return { dir, workspace: workspaceIn, branch, base: git(dir, 'merge-base', 'HEAD', head) };
  }
  mkdirSync(dirname(dir), { recursive: true });
  const known = (() => {
    try {
      git(top, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`);
      return true;
    } catch {
      return false;
    }
  })();
  if (known) git(top, 'worktree', 'add', '-q', dir, branch);
  else git(top, 'worktree', 'add', '-q', '-b', branch, dir, head);
  return { dir, workspace: workspaceIn, branch, base: head };
}

/** What the child left in its worktree, for its parent: commits on its branch and changes not committed. */
export function childWorktreeNote(wt: ChildWorktree): string {
  let commits: string[] = [];
  let changed: string[] = [];
  try {
    commits = git(wt.dir, 'log', '--format=%h %s', `${wt.base}..HEAD`).split('\n').filter(Boolean);
    changed = git(wt.dir, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l && !/^.. \.logbook\//.test(l));
  } catch (err) {
    return `[It worked in its own worktree ${wt.dir} (branch ${wt.branch}); git could not read it: ${String(err)}]`;
  }
  const lines = [
    `[It worked in its own worktree ${wt.dir}, on the branch ${wt.branch} (from ${wt.base.slice(0, 12)}). ` +
      `Nothing of it is in this workspace until it is merged.`,
    commits.length
      ? `Commits on ${wt.branch}: ${commits.length}\n${commits.map((c) => `  ${c}`).join('\n')}`
      : `No commits on ${wt.branch}.`,
    changed.length
      ? `Not committed: ${changed.length} file${changed.length > 1 ? 's' : ''}\n${changed.map((c) => `  ${c}`).join('\n')}`
      : 'Nothing left uncommitted.',
  ];
  return `${lines.join('\n')}]`;
}
