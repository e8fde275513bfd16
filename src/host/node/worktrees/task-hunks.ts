// A task's change against its base as numbered hunks, for `logbook review`, and a rejected hunk or
// file taken back as the editor's review does: reverted in the task's worktree and committed on its
// branch, one commit per decision, so apply then brings exactly the rest. The diff is always made
// with the same options (whatever the user's git config says), and a digest of it ties a rejection
// to the listing its numbers came from: when the task changed in between, nothing is taken back.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskRecord } from '../../../core/worktrees';
import { commitRejection } from './review-commit';
import { gitTry } from './git-run';

/** Names are names, never patterns: a file the task named `*.txt` is that file alone. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

/** Pinned so that a listing and a later rejection number the same hunks, whatever the config. */
const CONFIG = ['-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false'];
const DIFF = [
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-renames',
  '--diff-algorithm=myers',
  '--unified=3',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];

export interface TaskHunk {
  /** Its number in the whole listing, from 1. */
  number: number;
  /** Its lines, from its `@@` line on, as git wrote them (bytes kept: latin1). */
  lines: string[];
}

export interface TaskFileChange {
  path: string;
  /** The file's diff header (diff --git, mode lines, ---, +++), bytes kept. */
  head: string[];
  hunks: TaskHunk[];
}

export interface TaskDiff {
  /** A short hash of the whole diff: a rejection names it, so it never meets another listing. */
  digest: string;
  files: TaskFileChange[];
}

/** git's output with its bytes kept (latin1), for a patch given back to git as it was. */
function gitBytes(cwd: string, args: readonly string[], input?: string): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'latin1',
    input: input === undefined ? undefined : Buffer.from(input, 'latin1'),
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...LITERAL, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
  });
  if (r.error) throw new Error(`git could not run (${r.error.message}); is git installed?`);
  if (r.status !== 0) {
    const said = Buffer.from(r.stderr || r.stdout, 'latin1')
      .toString('utf8')
      .trim();
    throw new Error(`git ${args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? ''} failed: ${said}`);
  }
  return r.stdout;
}

/** A line of the diff as a person reads it (the file's bytes as UTF-8). */
export function readable(line: string): string {
  return Buffer.from(line, 'latin1').toString('utf8');
}

/** The task's committed change (its branch against its base), file by file, hunks numbered. */
export function taskDiff(task: TaskRecord): TaskDiff {
  const cwd = task.worktree;
  const names = gitBytes(cwd, [
    ...CONFIG,
    'diff',
    '-z',
    '--name-only',
    '--no-renames',
    task.base,
    task.branch,
  ])
    .split('\0')
    .filter((n) => n !== '');
  const hash = createHash('sha256');
  const files: TaskFileChange[] = [];
  let number = 0;
  for (const name of names) {
    const text = gitBytes(cwd, [...CONFIG, ...DIFF, task.base, task.branch, '--', name]);
    hash.update(name + '\0' + text + '\0');
    const all = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    const first = all.findIndex((l) => l.startsWith('@@'));
    const head = first < 0 ? all : all.slice(0, first);
    const hunks: TaskHunk[] = [];
    if (first >= 0) {
      for (const line of all.slice(first)) {
        if (line.startsWith('@@')) hunks.push({ number: ++number, lines: [line] });
        else hunks[hunks.length - 1]!.lines.push(line);
      }
    }
    files.push({ path: readable(name), head, hunks });
  }
  return { digest: hash.digest('hex').slice(0, 12), files };
}

export interface Rejected {
  path: string;
  /** The hunk's number, or undefined for the whole file. */
  hunk?: number;
  commit: string | null;
}

const WHERE = 'logbook review';

/**
 * Takes hunks of `diff` (the task's diff as it is now) back, one commit each; within a file from
 * the last hunk up, so that each one's lines are still where the diff says.
 */
export function rejectHunks(task: TaskRecord, diff: TaskDiff, numbers: readonly number[]): Rejected[] {
  const wanted = new Set(numbers);
  const done: Rejected[] = [];
  for (const file of diff.files) {
    for (const hunk of [...file.hunks].reverse()) {
      if (!wanted.has(hunk.number)) continue;
      const patch = [...file.head, ...hunk.lines].join('\n') + '\n';
      gitBytes(task.worktree, ['apply', '-R', '--whitespace=nowarn', '-p1', '-'], patch);
      const commit = commitRejection(task, file.path, false, WHERE);
      done.push({ path: file.path, hunk: hunk.number, commit });
    }
  }
  return done;
}

/** Takes the task's whole change to `path` back: the base's file again, or none if it added it. */
export function rejectFile(task: TaskRecord, path: string): Rejected {
  const cwd = task.worktree;
  const inBase = gitTry(cwd, ['cat-file', '-e', `${task.base}:${path}`]).code === 0;
  if (inBase) gitBytes(cwd, ['checkout', task.base, '--', path]);
  else rmSync(join(cwd, path), { force: true });
  return { path, commit: commitRejection(task, path, true, WHERE) };
}
