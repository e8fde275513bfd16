// Keeps the default conversation store (<workspace>/.logbook/) out of `git status`: one line in the
// repository's .git/info/exclude, which is the clone's own and never committed. Only when the
// workspace is in a git repository and the line is not there yet; a failure to write is no failure
// of the run, just a note.
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export const STORE_EXCLUDE_LINE = '.logbook/';

/** What happened: 'added', 'present' (the line was there), 'no-repository'. */
export type ExcludeResult = 'added' | 'present' | 'no-repository';

export function excludeStoreFromGit(workspace: string): ExcludeResult {
  const gitDir = findGitDir(workspace);
  if (!gitDir) return 'no-repository';
  const file = join(commonDir(gitDir), 'info', 'exclude');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.includes(STORE_EXCLUDE_LINE) || lines.includes(`/${STORE_EXCLUDE_LINE}`)) return 'present';
  mkdirSync(dirname(file), { recursive: true });
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  appendFileSync(file, `${sep}# Logbook's conversations (logbook run)\n${STORE_EXCLUDE_LINE}\n`);
  return 'added';
}

/** The .git folder of the repository `dir` is in (a worktree's or submodule's `.git` file followed). */
function findGitDir(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const kind = statKind(dotGit);
    if (kind === 'dir') return dotGit;
    if (kind === 'file') {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m) return isAbsolute(m[1]!) ? m[1]! : resolve(at, m[1]!);
    }
    if (dirname(at) === at) return undefined;
  }
}

/** A linked worktree keeps info/exclude in the main repository's folder, which `commondir` names. */
function commonDir(gitDir: string): string {
  const file = join(gitDir, 'commondir');
  if (!existsSync(file)) return gitDir;
  const rel = readFileSync(file, 'utf8').trim();
  return isAbsolute(rel) ? rel : resolve(gitDir, rel);
}

function statKind(p: string): 'dir' | 'file' | undefined {
  try {
    const s = statSync(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}
