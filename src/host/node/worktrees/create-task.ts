// Starting a worktree task: a branch logbook/<name> and its worktree from the current HEAD, in
// Logbook's data folder, recorded before git makes it (a task killed at any point is listed and can
// be cleaned up). `carry` brings the user's uncommitted change over without touching the user's
// tree: `git stash create` only writes objects, and untracked files are copied.
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type TaskRecord, taskBranch, taskNameFrom, taskNameProblem } from '../../../core/worktrees';
import { git, gitTry, lines } from './git-run';
import type { TaskStore } from './task-store';
import { holdTaskOwner } from './task-owner';

export interface CreateOptions {
  /** The user's working tree the task starts from (its HEAD is the base). */
  from: string;
  task: string;
  name?: string;
  carry?: boolean;
  /** The commit to start from instead of HEAD (a continued task starts from its source's base). */
  base?: string;
  /** false: the worktree is made without its files (a continued task's come from a checkpoint). */
  checkout?: boolean;
}

export interface Created {
  record: TaskRecord;
  /** What --carry brought over: tracked files changed, untracked files copied. */
  carried: { tracked: number; untracked: number } | null;
}

export function createTask(store: TaskStore, opts: CreateOptions): Created {
  const name = opts.name ?? freeName(store, opts.task);
  const problem = taskNameProblem(name);
  if (problem) throw new Error(problem);
  const branch = taskBranch(name);
  if (store.has(name))
    throw new Error(`a task named "${name}" exists already (logbook tasks lists it); pick another name.`);
  if (gitTry(opts.from, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).code === 0)
    throw new Error(`the branch ${branch} exists already; pick another name, or delete that branch first.`);
  const worktree = store.worktreeDir(name);
  if (existsSync(worktree)) throw new Error(`${worktree} exists already; pick another name.`);
  const head = gitTry(opts.from, ['rev-parse', '--verify', '--quiet', `${opts.base ?? 'HEAD'}^{commit}`]);
  if (head.code !== 0 && opts.base !== undefined)
    throw new Error(`the commit ${opts.base} is not in ${opts.from} any more.`);
  if (head.code !== 0)
    throw new Error(`${opts.from} has no commit yet; a task starts from one (make a first commit).`);

  const record: TaskRecord = {
    version: 1,
    name,
    branch,
    base: head.stdout.trim(),
    repository: opts.from,
    worktree,
    log: store.logDir(name),
    task: opts.task,
    created: new Date().toISOString(),
    status: 'active',
  };
  // Held before the record is written: a task listed while its worktree is made reads as starting.
  holdTaskOwner(record.log);
  store.put(record);
  mkdirSync(dirname(worktree), { recursive: true });
  const checkout = opts.checkout === false ? ['--no-checkout'] : [];
  git(opts.from, ['worktree', 'add', '--quiet', ...checkout, '-b', branch, worktree, record.base]);
  const carried = opts.carry ? carryChange(opts.from, worktree) : null;
  return { record, carried };
}

/** A name from the task's words not taken yet (the short id makes a clash rare; retried if not). */
function freeName(store: TaskStore, task: string): string {
  for (let i = 0; i < 5; i++) {
    const name = taskNameFrom(task, randomUUID().slice(0, 6));
    if (!store.has(name) && !existsSync(store.worktreeDir(name))) return name;
  }
  throw new Error('could not find a free task name; give one: logbook run --worktree NAME "task".');
}

/** Applies the user's uncommitted change to `worktree`; the user's tree and refs are not touched. */
function carryChange(from: string, worktree: string): { tracked: number; untracked: number } {
  const stash = stashWithoutIndexWrite(from);
  let tracked = 0;
  if (stash !== '') {
    tracked = lines(git(from, ['diff', '--name-only', 'HEAD', stash])).length;
    git(worktree, ['stash', 'apply', '--quiet', stash]);
  }
  const top = git(from, ['rev-parse', '--show-toplevel']).trim();
  const untracked = git(top, ['ls-files', '--others', '--exclude-standard', '-z'])
    .split('\0')
    .filter((p) => p !== '');
  for (const rel of untracked) copyEntry(join(top, rel), join(worktree, rel));
  return { tracked, untracked: untracked.length };
}

/**
 * `git stash create` refreshes the index it reads, which would rewrite the user's .git/index; it
 * reads a copy instead, so the user's repository is the same bytes after as before.
 */
function stashWithoutIndexWrite(from: string): string {
  const index = resolve(from, git(from, ['rev-parse', '--git-path', 'index']).trim());
  const scratch = mkdtempSync(join(tmpdir(), 'logbook-carry-'));
  try {
    const copy = join(scratch, 'index');
    if (existsSync(index)) copyFileSync(index, copy);
    return git(from, ['stash', 'create'], { GIT_INDEX_FILE: copy }).trim();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function copyEntry(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  const st = lstatSync(from);
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (st.isFile()) copyFileSync(from, to);
}
