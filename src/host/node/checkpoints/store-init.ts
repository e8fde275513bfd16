// Creates the checkpoint store's git folder so that no other opener ever sees it half made. Two
// windows, or a window and the CLI, may open the same workspace's store at once: the store is
// built in a folder of its own and renamed into place whole. A folder found in place without the
// store's attributes file (left by an init that died part way) is finished where it is.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
