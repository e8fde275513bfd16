// Files that run later in the user's own context, outside any sandbox: git's configuration and
// hooks (the editor's git runs `git status` by itself), the editor's tasks and settings, dev
// containers, direnv, Logbook's own agents and settings, git hook managers. One list, read by the
// sandbox (read-only there, whether the path exists or not) and by the file tools (writing any of
// them is HIGH). Pure: no file system access.

export interface RunsLaterEntry {
  /**
   * Relative to a workspace folder, `/`-separated. `*` matches within one name;
   * a trailing `/` marks a folder, held whole.
   */
  pattern: string;
  /** Why writing it matters, completing "… runs later outside the sandbox: <why>". */
  why: string;
  /** Names the pattern matches that are not held (templates nothing loads). */
  except?: RegExp;
}

/**
 * Inside `.git`, what git writes for ordinary work (objects, refs, the index, HEAD, logs, merge and
 * rebase state) stays writable; everything it reads as configuration or runs is held here.
 */
export const RUNS_LATER: readonly RunsLaterEntry[] = [
  {
    pattern: '.git/config',
    why: "git's configuration (core.fsmonitor, core.hooksPath and aliases run programs)",
  },
  { pattern: '.git/config.worktree', why: "git's per-worktree configuration" },
  { pattern: '.git/commondir', why: 'where git reads its configuration and hooks from' },
  { pattern: '.git/hooks/', why: 'git hooks run at the next commit, checkout or merge' },
  { pattern: '.git/info/', why: "git's attributes and excludes, which name filter programs" },
  { pattern: '.git/modules/*/config', why: "a submodule's git configuration" },
  { pattern: '.git/modules/*/hooks/', why: "a submodule's git hooks" },
  { pattern: '.git/worktrees/', why: "linked worktrees' git folders and configuration" },
  { pattern: '.gitmodules', why: 'submodule URLs and update commands that git runs' },
  {
    // A folder holding a `.git` file or link is a repository whose git folder is wherever it says.
    pattern: '.git',
    why: "which folder git reads a repository's configuration and hooks from",
  },
  {
    pattern: '.vscode/',
    why: "the editor's workspace settings, tasks (run on folder open) and launch configurations",
  },
  { pattern: '.devcontainer/', why: 'the dev container the editor builds and starts' },
  {
    pattern: '.logbook/',
    why: "Logbook's own agents and settings (hooks.json too), and its conversation logs",
  },
  {
    // Its settings.json holds hooks Logbook runs (once accepted) and Claude Code runs; its hooks/
    // folder the scripts they name.
    pattern: '.claude/',
    why: 'hooks, settings and agents that Logbook and Claude Code run',
  },
  { pattern: '.envrc', why: 'direnv runs it when a shell enters the folder' },
  { pattern: '.env', why: 'environment files that tools load into later processes' },
  {
    pattern: '.env.*',
    why: 'environment files that tools load into later processes',
    // Templates are copied by hand, not loaded.
    except: /^\.env\.(example|sample|template|dist|defaults?)$/,
  },
  { pattern: '.husky/', why: 'git hooks installed by husky' },
  { pattern: '.githooks/', why: 'a git hooks folder' },
  { pattern: '*.code-workspace', why: "an editor workspace file's settings and tasks" },
];

/** Build and task files: code the user will run, rated for what they are (not held read-only). */
export const BUILD_FILES: readonly RunsLaterEntry[] = [
  { pattern: 'package.json', why: 'its scripts run on npm install, npm test and npm start' },
  { pattern: 'Makefile', why: 'its recipes run on make' },
  { pattern: 'makefile', why: 'its recipes run on make' },
  { pattern: 'GNUmakefile', why: 'its recipes run on make' },
  { pattern: 'Justfile', why: 'its recipes run on just' },
  { pattern: 'justfile', why: 'its recipes run on just' },
  { pattern: 'Taskfile.yml', why: 'its tasks run on task' },
  { pattern: 'setup.py', why: 'it runs on pip install' },
  { pattern: 'build.gradle', why: 'it runs on every gradle build' },
  { pattern: 'build.gradle.kts', why: 'it runs on every gradle build' },
];

/** A relative path's segments, without empty ones or `.`. */
function parts(rel: string): string[] {
  return rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

function segmentMatches(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(
    '^' +
      pattern
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*') +
      '$',
  );
  return re.test(name);
}

/**
 * The entry of `list` that holds `rel` (relative to a workspace folder): the path itself, or a
 * path inside a held folder. A pattern with no `/` (`*.code-workspace`, `.env.*`) matches a name
 * at any depth, as git ignores do; the others are anchored at the workspace folder, but for those
 * under `.git/`, which hold in every repository of the workspace (`vendor/lib/.git/config`: the
 * editor's git opens repositories in subfolders by itself).
 */
export function entryHolding(
  rel: string,
  list: readonly RunsLaterEntry[] = RUNS_LATER,
): RunsLaterEntry | undefined {
  const path = parts(rel);
  if (path.length === 0 || path[0] === '..') return undefined;
  const git = path.indexOf('.git');
  for (const entry of list) {
    const folder = entry.pattern.endsWith('/');
    const pat = parts(entry.pattern);
    if (pat.length === 1 && !folder) {
      const name = path[path.length - 1]!;
      if (segmentMatches(pat[0]!, name) && !entry.except?.test(name)) return entry;
      continue;
    }
    const at = pat[0] === '.git' && git > 0 ? path.slice(git) : path;
    if (at.length < pat.length || (!folder && at.length !== pat.length)) continue;
    if (pat.every((p, i) => segmentMatches(p, at[i]!))) return entry;
  }
  return undefined;
}

/**
 * Why writing `rel` (relative to a workspace folder) reaches past the sandbox: a file the user's own
 * tools run or load later. The sentence names the path; `extra` are the user's own patterns.
 */
export function runsLaterReason(rel: string, extra: readonly string[] = []): string | undefined {
  const entry = entryHolding(rel, [
    ...RUNS_LATER,
    ...extra.map((pattern) => ({ pattern, why: 'on your list of files that run later' })),
  ]);
  return entry ? `${rel} runs later outside the sandbox, in your own context: ${entry.why}` : undefined;
}

/** Why `rel` is code the user will run (a build or task file), or undefined. */
export function buildFileReason(rel: string): string | undefined {
  const build = entryHolding(rel, BUILD_FILES);
  return build ? `${rel} is code you will run: ${build.why}` : undefined;
}
