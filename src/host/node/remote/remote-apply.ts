// Bringing the server's change into the local working tree, file by file, by the rules a
// worktree task's apply follows: uncommitted local changes stop it unless forced, and a file
// changed here and on the server is merged by git (`git merge-file`); what does not merge is left
// with git's conflict markers and named, never resolved here. Nothing is committed: the change
// lands as uncommitted work to review.
import {
  chmodSync,
  existsSync,
  lstatSync,
  statSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { gitTry } from '../worktrees/git-run';
import type { ServerChange } from './agent-server-git';

export interface RemoteApplyResult {
  /** Files written or removed as the server has them. */
  applied: string[];
  /** Files merged with local changes, cleanly. */
  merged: string[];
  /** Files left with conflict markers, or left as they are, and why. */
  conflicts: { path: string; why: string }[];
}

function readLocal(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * The file at the server's HEAD, exactly: the server's diff trims it, so this tree's HEAD version
 * is taken when it is the same text (the same base commit), else the server's text as it came.
 */
function baseText(into: string, path: string, server: string): string {
  const r = gitTry(into, ['show', `HEAD:${path}`]);
  return r.code === 0 && r.stdout.trim() === server.trim() ? r.stdout : server;
}

/**
 * The local path of a change, or why it cannot be written: through a symlink a file inside the
 * tree by name could be one outside it.
 */
function localPath(into: string, rel: string): { file: string } | { why: string } {
  const root = realpathSync(into);
  const file = join(root, rel);
  let probe = dirname(file);
  while (!existsSync(probe)) probe = dirname(probe);
  const real = realpathSync(probe);
  if (real !== root && !real.startsWith(root + sep))
    return { why: 'its folder here leads outside the working tree (a symlink); left as it is' };
  if (existsSync(file) && lstatSync(file).isSymbolicLink())
    return { why: 'it is a symlink here; left as it is' };
  return { file };
}

function write(file: string, text: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The executable bit as the server has it (where it is known), for whoever may read the file. */
function setMode(file: string, executable: boolean | undefined): void {
  if (executable === undefined || !existsSync(file)) return;
  const mode = statSync(file).mode & 0o777;
  chmodSync(file, executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111);
}

/** `git merge-file` of here / the server's HEAD / the server's file; the merged text and whether it conflicted. */
function mergeThree(
  into: string,
  path: string,
  here: string,
  base: string,
  theirs: string,
): { text: string; conflicted: boolean } {
  const tmp = mkdtempSync(join(tmpdir(), 'logbook-remote-merge-'));
  try {
    const [a, b, c] = ['here', 'base', 'server'].map((n) => join(tmp, n));
    writeFileSync(a!, here);
    writeFileSync(b!, base);
    writeFileSync(c!, theirs);
    const r = gitTry(into, [
      'merge-file',
      '-p',
      '-L',
      `${path} (here)`,
      '-L',
      `${path} (server's HEAD)`,
      '-L',
      `${path} (server)`,
      a!,
      b!,
      c!,
    ]);
    if (r.code < 0 || r.code > 127) throw new Error(`git merge-file failed on ${path}: ${r.stderr.trim()}`);
    return { text: r.stdout, conflicted: r.code > 0 };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function trackedAndClean(into: string, path: string): boolean {
  return (
    gitTry(into, ['ls-files', '--error-unmatch', '--', path]).code === 0 &&
    gitTry(into, ['diff', '--quiet', 'HEAD', '--', path]).code === 0
  );
}

export function applyServerChanges(into: string, changes: readonly ServerChange[]): RemoteApplyResult {
  const result: RemoteApplyResult = { applied: [], merged: [], conflicts: [] };
  for (const c of changes) {
    const where = localPath(into, c.path);
    if ('why' in where) {
      result.conflicts.push({ path: c.path, why: where.why });
      continue;
    }
    const { file } = where;
    const here = readLocal(file);
    if (c.status === 'DELETED') {
      if (here === undefined) continue;
      // The server sends no text for a deleted file: only a file as this tree's HEAD has it is removed.
      if (trackedAndClean(into, relative(realpathSync(into), file))) {
        unlinkSync(file);
        result.applied.push(c.path);
      } else
        result.conflicts.push({ path: c.path, why: 'deleted on the server, changed here; left as it is' });
      continue;
    }
    const theirs = c.modified ?? Buffer.alloc(0);
    // Written or merged below, or the same bytes here: the file gets the server's mode.
    const settle = () => setMode(file, c.executable);
    if (here !== undefined && here.equals(theirs)) {
      const was = statSync(file).mode;
      settle();
      if (statSync(file).mode !== was) result.applied.push(c.path);
      continue;
    }
    if (here === undefined) {
      write(file, theirs);
      settle();
      if (c.original === null) result.applied.push(c.path);
      // As git does with a modify/delete conflict: the changed side is left for the user to judge.
      else
        result.conflicts.push({
          path: c.path,
          why: "changed on the server, deleted here; the server's version written",
        });
      continue;
    }
    const base = c.original === null ? '' : baseText(into, c.path, c.original);
    if (c.original !== null && here.toString('utf8') === base) {
      write(file, theirs);
      settle();
      result.applied.push(c.path);
      continue;
    }
    if (here.includes(0) || theirs.includes(0)) {
      result.conflicts.push({
        path: c.path,
        why: 'a binary file changed here and on the server; left as it is',
      });
      continue;
    }
    const m = mergeThree(into, c.path, here.toString('utf8'), base, theirs.toString('utf8'));
    write(file, m.text);
    settle();
    if (m.conflicted)
      result.conflicts.push({
        path: c.path,
        why:
          c.original === null
            ? 'added on the server and here; conflict markers'
            : 'changed here and on the server; conflict markers',
      });
    else result.merged.push(c.path);
  }
  return result;
}
