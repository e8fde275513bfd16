// Repositories for the worktree task tests: a real git repository with a first commit, the CLI's
// environment pointing its tasks at a folder of the test, and a hash of every file of a tree.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, lstatSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Turn } from '../../support/llm-server';

export const GIT_ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];

export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...GIT_ID, ...args], { cwd, encoding: 'utf8' });
}

/** A repository at `dir` holding `files`, committed once on main. */
export function makeRepo(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  gitIn(dir, 'add', '--all');
  gitIn(dir, 'commit', '--quiet', '-m', 'first');
  return dir;
}

/**
 * What a task must leave alone in the user's repository: the checked-out branch's ref and HEAD,
 * the index, and each of them the same bytes. A task adds its own branch, worktree entry and
 * objects to .git, which are not the user's.
 */
const USERS_GIT = new Set(['.git/HEAD', '.git/index', '.git/refs/heads/main', '.git/logs/HEAD']);

/**
 * Every file of the working tree under `dir`, and the user's own files of .git (USERS_GIT), by its
 * path, as a hash of its bytes; a symlink by its target. Two equal maps: the tree was not touched.
 */
export function treeHashes(
  dir: string,
  skip: (rel: string) => boolean = (rel) =>
    rel.startsWith('.git/') &&
    !USERS_GIT.has(rel) &&
    !'.git/refs/heads/'.startsWith(rel) &&
    !['.git/refs', '.git/logs'].includes(rel),
): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel === '' ? name : `${rel}/${name}`;
      if (skip(r)) continue;
      const p = join(dir, r);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(r);
      else if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(p)}`);
      else out.set(r, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk('');
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** A file_editor call that creates `path` with `text`. */
export function createCall(id: string, path: string, text: string) {
  return {
    id,
    name: 'file_editor',
    arguments: { command: 'create', path, file_text: text, security_risk: 'LOW', summary: `create ${path}` },
  };
}

/** a.txt of the task tests: twenty numbered lines, so edits near each end make two hunks. */
export const TWENTY_LINES = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

/** A file_editor call that replaces `from` with `to` in a.txt (with `summary` when given). */
export function replaceCall(id: string, from: string, to: string, summary?: string) {
  return {
    id,
    name: 'file_editor',
    arguments: {
      command: 'str_replace',
      path: 'a.txt',
      old_str: from,
      new_str: to,
      security_risk: 'LOW',
      ...(summary === undefined ? {} : { summary }),
    },
  };
}

/**
 * One turn making three hunks in two files (line 2 of a.txt becomes `two`, line 18 `eighteen`, and
 * new.txt is created), then finish. `summarize` gives each edit a summary.
 */
export function threeHunkTurns(two: string, eighteen: string, summarize = false): Turn[] {
  const summary = (from: string) => (summarize ? `edit ${from}` : undefined);
  return [
    {
      reply: {
        toolCalls: [
          replaceCall('call_a', 'line 2\n', two, summary('line 2\n')),
          replaceCall('call_b', 'line 18\n', eighteen, summary('line 18\n')),
          createCall('call_c', 'new.txt', 'new file\n'),
        ],
      },
    },
    { match: { lastRole: 'tool' }, reply: { toolCalls: [finishCall()] } },
  ];
}

export function finishCall(id = 'call_finish') {
  return { id, name: 'finish', arguments: { message: 'Done.' } };
}
