// One bounded walk of a workspace for what the sandbox must hold read-only wherever it lies: files
// named by a pattern that matches at any depth (`.env`, `*.code-workspace`), git repositories
// (a folder holding `.git`) and folders that may be git folders themselves, and files with more than one hard link (a write through one changes
// a file elsewhere). Git's own internals are not entered. Dependency folders (`node_modules`) hold
// most of a big workspace's files, so only their package folders are looked at, for a `.git` (the
// editor's git opens a repository there by itself): one listing of each `node_modules` (and scope)
// and one lstat a package, nothing of what the packages hold.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** Folders the walk does not enter, by name (a dependency folder is looked at by packageRepos). */
const NOT_ENTERED = new Set(['node_modules', '.git']);
const DEPENDENCIES = 'node_modules';

/** Entries a walk looks at before it stops (a workspace bigger than this is held in part). */
export const SCAN_LIMIT = 100_000;

export interface WorkspaceScan {
  /** Files (or anything not a folder) whose name `named` accepts, relative, `/`-separated. */
  named: string[];
  /** Folders holding a `.git` (relative; '' is the workspace itself). */
  repos: string[];
  /**
   * Folders holding a `HEAD` file (relative): perhaps a git folder under another name (a bare
   * repository, or one a `.git` file points at), which git finds walking up from a subfolder.
   */
  gitDirs: string[];
  /** Regular files with more than one hard link (relative); only when asked. */
  linked: string[];
  /** The walk stopped at the limit: the lists are partial. */
  truncated: boolean;
  /** Entries looked at. */
  entries: number;
}

export interface ScanOptions {
  /** Whether a name is held at any depth. */
  named: (name: string) => boolean;
  /**
   * Which regular files are stat'ed for their link count (one stat a file): all, none, or those in
   * folders whose modification time differs from `folderTimes` (a new name: a link made there).
   */
  links: 'all' | 'none' | 'changed';
  /** Folders' modification times, by relative path: read for `changed`, written when given. */
  folderTimes?: Map<string, number>;
  limit?: number;
}

export function scanWorkspace(root: string, opts: ScanOptions): WorkspaceScan {
  const out: WorkspaceScan = { named: [], repos: [], gitDirs: [], linked: [], truncated: false, entries: 0 };
  const limit = opts.limit ?? SCAN_LIMIT;
  const stack: string[] = [''];
  while (stack.length) {
    const rel = stack.pop()!;
    const dir = rel ? join(root, rel) : root;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing of it can be held
    }
    let links = opts.links !== 'none';
    if (opts.folderTimes) {
      const time = mtime(dir);
      if (opts.links === 'changed') links = opts.folderTimes.get(rel) !== time;
      opts.folderTimes.set(rel, time);
    }
    for (const e of entries) {
      if (++out.entries > limit) {
        out.truncated = true;
        return out;
      }
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === '.git') out.repos.push(rel);
      if (e.isDirectory()) {
        if (!NOT_ENTERED.has(e.name)) stack.push(r);
        else if (e.name === DEPENDENCIES && !packageRepos(root, r, out, limit)) return out;
        continue;
      }
      if (e.name === 'HEAD') out.gitDirs.push(rel);
      if (opts.named(e.name)) out.named.push(r);
      if (links && e.isFile()) {
        try {
          if (lstatSync(join(root, r)).nlink > 1) out.linked.push(r);
        } catch {
          // gone since the listing
        }
      }
    }
  }
  return out;
}

function mtime(p: string): number {
  try {
    return lstatSync(p).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The repositories among the packages of the dependency folder `rel` (a package folder holding a
 * `.git`, or the folder itself), and in their own dependency folders; scopes (`@org/`) are
 * listed too. A package that is a link (pnpm, a workspace package) is not followed. False when the
 * walk reached its limit.
 */
function packageRepos(root: string, rel: string, out: WorkspaceScan, limit: number): boolean {
  const stack = [rel];
  while (stack.length) {
    const deps = stack.pop()!;
    const folders = [deps];
    for (let i = 0; i < folders.length; i++) {
      const dir = folders[i]!;
      let entries: Dirent[];
      try {
        entries = readdirSync(join(root, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++out.entries > limit) {
          out.truncated = true;
          return false;
        }
        if (e.name === '.git') out.repos.push(dir);
        if (!e.isDirectory() || e.name === '.git') continue;
        const pkg = `${dir}/${e.name}`;
        // A scope holds packages: listed as the dependency folder is.
        if (dir === deps && e.name.startsWith('@')) {
          folders.push(pkg);
          continue;
        }
        if (exists(join(root, pkg, '.git'))) out.repos.push(pkg);
        if (isFolder(join(root, pkg, DEPENDENCIES))) stack.push(`${pkg}/${DEPENDENCIES}`);
      }
    }
  }
  return true;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function isFolder(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
