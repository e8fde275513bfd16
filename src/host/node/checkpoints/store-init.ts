// Creates the checkpoint store's git folder so that no other opener ever sees it half made. Two
// windows, or a window and the CLI, may open the same workspace's store at once: the store is
// built in a folder of its own and renamed into place whole. A folder found in place without the
// store's attributes file (left by an init that died part way) is finished where it is. A folder
// being built whose maker died is removed by the next opener.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GitError, runGit, type GitPaths } from './git-process';

/** Byte for byte: no end-of-line conversion, filter or encoding from the workspace's .gitattributes. */
const ATTRIBUTES = '* -text -filter -ident -working-tree-encoding -diff -merge\n';

/** Written last: a git folder with it is a finished store. */
function attributesFile(gitDir: string): string {
  return join(gitDir, 'info', 'attributes');
}

/** Makes sure a finished store is at `paths.gitDir` (creating it if none is). */
export async function ensureStoreRepository(paths: GitPaths): Promise<void> {
  const { gitDir } = paths;
  removeAbandonedBuilds(gitDir);
  if (existsSync(attributesFile(gitDir))) return;
  if (existsSync(join(gitDir, 'HEAD'))) return finish(paths);
  mkdirSync(dirname(gitDir), { recursive: true });
  const building = join(
    dirname(gitDir),
    `${basename(gitDir)}.${process.pid}.${randomBytes(4).toString('hex')}.init`,
  );
  try {
    mkdirSync(building);
    const own: GitPaths = { ...paths, gitDir: building };
    await runGit(own, ['init', '-q', '--bare', building], { bare: true });
    await finish(own);
    try {
      renameSync(building, gitDir);
    } catch (err) {
      // Another opener's store went into place first: it is the same empty store, use it.
      if (!existsSync(attributesFile(gitDir))) throw err;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * A build folder is never older than this while its maker works on it (a `git init` and a config
 * write take seconds): past it, a folder whose pid is alive belongs to a later process that got
 * the same pid.
 */
export const ABANDONED_BUILD_AGE_MS = 60 * 60 * 1000;

/**
 * A folder younger than this is kept even when its pid is not alive here: its maker may be a
 * process this one cannot see (another container or machine sharing the folder).
 */
export const BUILD_GRACE_MS = 5 * 60 * 1000;

/**
 * Removes the `<name>.<pid>.<hex>.init` folders beside the store that a process left when it died
 * while building: those whose pid is not alive (past a few minutes' grace), or that are too old to
 * be still in the making.
 * Best effort: a folder that cannot be read or removed is left for a later opener.
 */
export function removeAbandonedBuilds(gitDir: string, now = Date.now()): void {
  const parent = dirname(gitDir);
  const prefix = `${basename(gitDir)}.`;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^([1-9][0-9]{0,9})\.[0-9a-f]+\.init$/.exec(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !match) continue;
    const folder = join(parent, name);
    try {
      const age = now - statSync(folder).mtimeMs;
      if (age > ABANDONED_BUILD_AGE_MS || (age > BUILD_GRACE_MS && !processAlive(Number(match[1]))))
        rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already (another opener removed it) or not ours to remove.
    }
  }
}

/** Whether a process with this pid exists (another user's too: it may still be working). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // ESRCH: no such process; a pid out of range cannot be one either.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The store's settings and attributes, on a folder `git init` made. */
async function finish(paths: GitPaths): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await runGit(paths, ['config', 'core.bare', 'false'], { bare: true });
      break;
    } catch (err) {
      // Another opener finishing the same left-over folder holds the config's lock for a moment.
      if (!(err instanceof GitError) || !/config\.lock|lock config/.test(err.stderr) || attempt >= 50)
        throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const file = attributesFile(paths.gitDir);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, ATTRIBUTES);
  renameSync(tmp, file);
}
