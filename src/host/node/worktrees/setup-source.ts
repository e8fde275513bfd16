// What a new worktree task runs before its agent starts: the user's `worktrees.setup` command, then
// the repository's `.logbook/worktree-setup` as committed at HEAD, once the user accepted that
// content (accepted-hooks.json, by the working tree, the file and a hash of its text: a change is
// asked about again). The accepted text itself is what runs, never a file read again later.
import { createHash } from 'node:crypto';
import { type AcceptedContent, acceptHooks, isAccepted } from '../hooks/accepted-hooks';
import { gitTry } from './git-run';

export const SETUP_FILE = '.logbook/worktree-setup';

export type Env = Readonly<Record<string, string | undefined>>;

export interface SetupStep {
  /** `worktrees.setup` (the user's), or the repository file's path. */
  origin: string;
  command: string;
}

export interface RepositorySetup extends AcceptedContent {
  command: string;
}

/** The repository's setup file as committed at HEAD of `repo`; null when there is none or it is empty. */
export function repositorySetup(repo: string): RepositorySetup | null {
  const r = gitTry(repo, ['show', `HEAD:${SETUP_FILE}`]);
  if (r.code !== 0 || r.stdout.trim() === '') return null;
  const fingerprint = createHash('sha256').update(r.stdout).digest('hex');
  return { origin: SETUP_FILE, fingerprint, command: r.stdout };
}

export function setupAccepted(env: Env, repo: string, s: RepositorySetup): boolean {
  return isAccepted(env, repo, s);
}

export function acceptSetup(env: Env, repo: string, s: RepositorySetup): void {
  acceptHooks(env, repo, s);
}
