// Bringing the server's change into the local working tree, file by file, by the rules a
// worktree task's apply follows: uncommitted local changes stop it unless forced, and a file
// changed here and on the server is merged by git (`git merge-file`); what does not merge is left
// with git's conflict markers and named, never resolved here. Nothing is committed: the change
// lands as uncommitted work to review. A rename is made as one (the file's local changes go with
// it); symlinks are made last, each only where it leads inside the tree (remote-link-boundary.ts),
// so no file of this change is written through a link this change made.
import {
  chmodSync,
  existsSync,
  renameSync,
  lstatSync,
  statSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { hiddenReason } from '../../../core/security/hidden-paths';
import { hiddenLinkCheck } from '../sandbox/hidden-inodes';
import { gitTry } from '../worktrees/git-run';
import type { ServerChange } from './agent-server-git';
import {
  NONE_AGREED,
  type OutsideAgreed,
  type OutsideLink,
  outsideOnly,
  symlinkRefusal,
} from './remote-link-boundary';

export interface RemoteApplyResult {
  /** Files written or removed as the server has them. */
  applied: string[];
  /** Files merged with local changes, cleanly. */
  merged: string[];
  /**
   * Files left with conflict markers, or left as they are, and why; a rename's `path` names both
   * names (`old -> new`), its `file` the one here to open.
   */
  conflicts: { path: string; why: string; file?: string }[];
  /** Symlinks made that lead outside the working tree, as the user agreed (among `applied`). */
  outside: { path: string; leads: string }[];
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

/** One look at the hidden places' hard links per list: made when a file with other links is met. */
const linkChecks = new WeakMap<readonly string[], ReturnType<typeof hiddenLinkCheck>>();
function linkCheck(hidden: readonly string[]): ReturnType<typeof hiddenLinkCheck> {
  let check = linkChecks.get(hidden);
  if (!check) linkChecks.set(hidden, (check = hiddenLinkCheck(hidden)));
  return check;
}

/**
 * The local path of a change, or why it cannot be written: through a symlink a file inside the
 * tree by name could be one outside it, and a tree that holds a place the sandbox hides (a home
 * folder's ~/.ssh, the editor's storage) gets nothing of the server's written there, nor into a
 * file here that is a hard link to a hidden one.
 */
function localPath(
  into: string,
  rel: string,
  hidden: readonly string[],
  linkHere: 'refuse' | 'allow' = 'refuse',
): { file: string } | { why: string } {
  const root = realpathSync(into);
  const file = join(root, rel);
  let probe = dirname(file);
  while (!existsSync(probe)) probe = dirname(probe);
  const real = realpathSync(probe);
  if (real !== root && !real.startsWith(root + sep))
    return { why: 'its folder here leads outside the working tree (a symlink); left as it is' };
  const hiddenWhy = hiddenReason(
    rel,
    join(real, relative(probe, file)),
    { locations: () => hidden, links: () => linkCheck(hidden) },
    false,
  );
  if (hiddenWhy) return { why: `${hiddenWhy}; left as it is` };
  if (linkHere === 'refuse' && isLink(file)) return { why: 'it is a symlink here; left as it is' };
  return { file };
}

/** The entry itself (a symlink not followed), or undefined when nothing is there. */
function entry(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

const isLink = (file: string): boolean => entry(file)?.isSymbolicLink() === true;

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

/**
 * The server's symlinks that would be refused only because they lead outside the working tree
 * (to a place nothing hides): what the user may be asked about before the change is applied.
 */
export function outsideLinks(
  into: string,
  changes: readonly ServerChange[],
  hidden: readonly string[] = [],
): OutsideLink[] {
  const root = realpathSync(into);
  const out: OutsideLink[] = [];
  for (const c of changes) {
    if (c.symlink === undefined) continue;
    const leads = outsideOnly(root, c.path, c.symlink, hidden);
    if (leads !== undefined) out.push({ path: c.path, target: c.symlink, leads });
  }
  return out;
}

/**
 * The server's change into the working tree `into`. `hidden`: the places the sandbox hides, where
 * no symlink of the server's may lead. `agreed`: the symlinks the user agreed may lead outside the
 * tree (judged again here, by where each really leads when it is made).
 */
export function applyServerChanges(
  into: string,
  changes: readonly ServerChange[],
  hidden: readonly string[] = [],
  agreed: OutsideAgreed = NONE_AGREED,
): RemoteApplyResult {
  const result: RemoteApplyResult = { applied: [], merged: [], conflicts: [], outside: [] };
  // A file renamed whole is moved here as it is (it may be a symlink): with the symlinks, last.
  const last = (c: ServerChange) =>
    c.symlink !== undefined || (c.status === 'RENAMED' && c.modified === null);
  for (const c of changes) {
    if (last(c)) continue;
    if (c.status === 'RENAMED') applyRename(into, c, result, hidden);
    else applyFile(into, c, result, hidden);
  }
  // Last: no file above is written through a symlink this change makes.
  for (const c of changes) {
    if (c.symlink !== undefined) applyLink(into, c, c.symlink, result, hidden, agreed);
    else if (last(c)) applyMove(into, c, result, hidden);
  }
  return result;
}

function applyFile(
  into: string,
  c: ServerChange,
  result: RemoteApplyResult,
  hidden: readonly string[],
): void {
  // A symlink here is removed when the server deleted its path and it is as HEAD has it, or when
  // the server made a file of it and it leads where the base's did.
  const linkToFile = c.typeChanged === true && c.wasSymlink === true;
  const where = localPath(into, c.path, hidden, c.status === 'DELETED' || linkToFile ? 'allow' : 'refuse');
  if ('why' in where) {
    result.conflicts.push({ path: c.path, why: where.why });
    return;
  }
  const { file } = where;
  if (linkToFile && isLink(file)) {
    const now = readlinkSync(file);
    if (now !== c.original)
      return void result.conflicts.push({
        path: c.path,
        why: `a symlink on the server's base, a file there now; the symlink here leads elsewhere (to ${now}); left as it is`,
      });
    // Removed first: the file is written in its place, never through it.
    unlinkSync(file);
    write(file, c.modified ?? Buffer.alloc(0));
    setMode(file, c.executable);
    result.applied.push(c.path);
    return;
  }
  if (linkToFile && existsSync(file) && !readFileSync(file).equals(c.modified ?? Buffer.alloc(0)))
    return void result.conflicts.push({
      path: c.path,
      why: "a symlink on the server's base, a file there now; a different file is here; left as it is",
    });
  if (c.status === 'DELETED') {
    const there = entry(file);
    if (there === undefined) return;
    // The server sends no text for a deleted file: only a file as this tree's HEAD has it is removed.
    if (there.isDirectory())
      result.conflicts.push({ path: c.path, why: 'deleted on the server, a folder here; left as it is' });
    else if (trackedAndClean(into, relative(realpathSync(into), file))) {
      unlinkSync(file);
      result.applied.push(c.path);
    } else result.conflicts.push({ path: c.path, why: 'deleted on the server, changed here; left as it is' });
    return;
  }
  const here = readLocal(file);
  const theirs = c.modified ?? Buffer.alloc(0);
  // Written or merged below, or the same bytes here: the file gets the server's mode.
  const settle = () => setMode(file, c.executable);
  if (here !== undefined && here.equals(theirs)) {
    const was = statSync(file).mode;
    settle();
    if (statSync(file).mode !== was) result.applied.push(c.path);
    return;
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
    return;
  }
  const base = c.original === null ? '' : baseText(into, c.path, c.original);
  if (c.original !== null && here.toString('utf8') === base) {
    write(file, theirs);
    settle();
    result.applied.push(c.path);
    return;
  }
  if (here.includes(0) || theirs.includes(0)) {
    result.conflicts.push({
      path: c.path,
      why: 'a binary file changed here and on the server; left as it is',
    });
    return;
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

/**
 * A file the server renamed (and maybe changed): its text goes under the new name and the old name
 * goes, when the old file is here as the base had it; changed here, the change here is merged into
 * it under the new name, as git merges a rename.
 */
function applyRename(
  into: string,
  c: ServerChange,
  result: RemoteApplyResult,
  hidden: readonly string[],
): void {
  const from = c.from!;
  const label = `${from} -> ${c.path}`;
  const need = (why: string, file = from) => result.conflicts.push({ path: label, why, file });
  const src = localPath(into, from, hidden);
  const dst = localPath(into, c.path, hidden);
  if ('why' in src) return void need(src.why);
  if ('why' in dst) return void need(dst.why);
  const theirs = c.modified ?? Buffer.alloc(0);
  const old = readLocal(src.file);
  const there = readLocal(dst.file);
  if (there !== undefined && !there.equals(theirs))
    return void need('renamed on the server; another file is here under the new name; left as it is');
  // The server's mode where its patch says, else the one the file has here.
  const oldMode = old === undefined ? undefined : statSync(src.file).mode & 0o777;
  const place = (text: string | Buffer) => {
    write(dst.file, text);
    if (c.executable !== undefined) setMode(dst.file, c.executable);
    else if (oldMode !== undefined) chmodSync(dst.file, oldMode);
  };
  if (old === undefined) {
    if (there !== undefined) return; // renamed here already
    place(theirs);
    return void need(
      "renamed on the server, deleted here; the server's version written under the new name",
      c.path,
    );
  }
  const base = c.original === null ? undefined : baseText(into, from, c.original);
  if (trackedAndClean(into, relative(realpathSync(into), src.file)) || old.toString('utf8') === base) {
    if (there === undefined) place(theirs);
    unlinkSync(src.file);
    result.applied.push(label);
    return;
  }
  if (there !== undefined || base === undefined || old.includes(0) || theirs.includes(0))
    return void need('renamed on the server, changed here; left as it is');
  const m = mergeThree(into, c.path, old.toString('utf8'), base, theirs.toString('utf8'));
  place(m.text);
  unlinkSync(src.file);
  if (m.conflicted) need('renamed on the server, changed here; conflict markers under the new name', c.path);
  else result.merged.push(label);
}

/**
 * A symlink the server has: made only where it leads inside the working tree and nowhere hidden;
 * one here already is replaced only when it is as the base had it.
 */
function applyLink(
  into: string,
  c: ServerChange,
  target: string,
  result: RemoteApplyResult,
  hidden: readonly string[],
  agreed: OutsideAgreed,
): void {
  const need = (why: string) => result.conflicts.push({ path: c.path, why });
  const where = localPath(into, c.path, hidden, 'allow');
  if ('why' in where) return void need(where.why);
  const root = realpathSync(into);
  const rel = relative(root, where.file);
  let leadsOut: string | undefined;
  const refused = symlinkRefusal(root, rel, target, hidden, (path, leads) => {
    leadsOut = leads;
    return agreed(path, leads);
  });
  if (refused) return void need(refused);
  const made = () => {
    result.applied.push(c.path);
    if (leadsOut !== undefined) result.outside.push({ path: c.path, leads: leadsOut });
  };
  const here = entry(where.file);
  if (here === undefined) {
    mkdirSync(dirname(where.file), { recursive: true });
    symlinkSync(target, where.file);
    if (c.wasSymlink || c.typeChanged) need("changed on the server, deleted here; the server's symlink made");
    else made();
    return;
  }
  if (!here.isSymbolicLink() && c.typeChanged && !here.isDirectory()) {
    // A file the server made a symlink of: replaced only when it is here as the base had it.
    const same = c.original !== null && readFileSync(where.file).toString('utf8') === c.original;
    if (!same && !trackedAndClean(into, rel))
      return void need(
        "a file on the server's base, a symlink there now; the file is changed here; left as it is",
      );
    unlinkSync(where.file);
    symlinkSync(target, where.file);
    return void made();
  }
  if (!here.isSymbolicLink())
    return void need('the server has a symlink here, this tree a file; left as it is');
  const now = readlinkSync(where.file);
  if (now === target) return;
  if (!c.wasSymlink || now !== c.original)
    return void need(`a symlink here leads elsewhere (to ${now}); left as it is`);
  unlinkSync(where.file);
  symlinkSync(target, where.file);
  made();
}

/**
 * A file the server renamed whole (no change of content; git gives no mode for it): the file here
 * is moved to the new name as it is, with its changes here; a symlink is moved only where its
 * target, read from the new place, leads inside the tree and nowhere hidden.
 */
function applyMove(
  into: string,
  c: ServerChange,
  result: RemoteApplyResult,
  hidden: readonly string[],
): void {
  const from = c.from!;
  const label = `${from} -> ${c.path}`;
  const need = (why: string) => result.conflicts.push({ path: label, why, file: from });
  const src = localPath(into, from, hidden, 'allow');
  const dst = localPath(into, c.path, hidden, 'allow');
  if ('why' in src) return void need(src.why);
  if ('why' in dst) return void need(dst.why);
  const old = entry(src.file);
  const there = entry(dst.file);
  if (old === undefined) {
    if (there === undefined) need('renamed on the server, gone here; nothing moved');
    return; // else renamed here already
  }
  if (there !== undefined)
    return void need('renamed on the server; another file is here under the new name; left as it is');
  if (old.isDirectory()) return void need('renamed on the server, a folder here; left as it is');
  const root = realpathSync(into);
  if (old.isSymbolicLink()) {
    const refused = symlinkRefusal(root, relative(root, dst.file), readlinkSync(src.file), hidden);
    if (refused) return void need(refused);
  }
  const clean = trackedAndClean(into, relative(root, src.file));
  mkdirSync(dirname(dst.file), { recursive: true });
  renameSync(src.file, dst.file);
  if (!old.isSymbolicLink()) setMode(dst.file, c.executable);
  (clean ? result.applied : result.merged).push(label);
}
