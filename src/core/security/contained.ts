// The "contained" verdict of the default mode: an action whose every effect stays inside the
// sandbox's writable folders and can be undone by a checkpoint needs no question. Pure: it reads
// only the action, the rules' analysis and what the checkpoints would hold (their coverage).
//   - A command that names what it deletes or overwrites (rm, mv, cp, sed -i, a redirection...) is
//     judged by those paths: contained unless one is, lies under, or holds a path no checkpoint holds.
//   - Any other command (a script, `npm test`, `node -e`, `make`) may write anywhere in the
//     workspace: contained only when every unheld path there is a folder its build or install
//     recreates (rebuildable.ts).
//   - A file tool's write is judged by its one path, which must lie in a checkpointed folder.
// Never contained: a HIGH rating (from the rules or the model), something that acts outside the
// machine (outside-effects.ts), typing into a running command, any other tool.
import { lstatSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { CheckpointCoverage, UnheldPath, UnheldReason } from '../checkpoints/types';
import type { ActionAnalysis } from './analyzers';
import { commandDisclosure } from './command-risk';
import { outsideEffect } from './outside-effects';
import { realPath, realRoots } from './resolve-path';
import { buildFileReason, entryHolding } from './runs-later';
import { isRebuildable } from './rebuildable';

export interface ContainedInput {
  toolName: string;
  args: Readonly<Record<string, unknown>>;
  analysis: ActionAnalysis;
  /** Where the agent's shell is (relative paths of a command start there); the first root if absent. */
  cwd?: string;
  /** Workspace folders. */
  roots: readonly string[];
  /** Folders besides the workspace the sandbox lets commands write. */
  writable: readonly string[];
  coverage: CheckpointCoverage;
}

export type ContainedVerdict =
  | { contained: true; reason: string }
  /**
   * `why`: what a checkpoint could not undo, when that is what makes it ask. `named`: the action
   * itself names a path no checkpoint holds, which asks even when its risk alone would not.
   */
  | { contained: false; why?: string; named?: true };

/** The reason recorded on an action that ran without a question (the host adds the checkpoint). */
export const CONTAINED_REASON = 'contained in the sandbox, and a checkpoint can undo it';

/** At most this many unheld paths are named in a question. */
const NAMED = 3;

export function containedVerdict(input: ContainedInput): ContainedVerdict {
  const { analysis } = input;
  if (analysis.byAnalyzer.some((r) => r.risk === 'HIGH')) return { contained: false };
  const uncovered = input.roots.find((root) => !input.coverage.roots.some((c) => inside(root, c)));
  if (uncovered !== undefined)
    return { contained: false, why: `no checkpoint holds the workspace folder ${uncovered}` };
  if (input.toolName === 'terminal') return commandVerdict(input);
  if (input.toolName === 'file_editor' && input.args.command !== 'view') return fileVerdict(input);
  return { contained: false };
}

function commandVerdict(input: ContainedInput): ContainedVerdict {
  const command = input.args.command;
  if (input.args.is_input === true || typeof command !== 'string') return { contained: false };
  const outside = outsideEffect(command);
  if (outside)
    return { contained: false, why: `${outside} acts outside this machine, where no checkpoint reaches` };
  const disclosure = commandDisclosure(command, {
    roots: input.roots,
    ...(input.cwd ? { cwd: input.cwd } : {}),
    sandboxed: true,
  });
  if (disclosure) return { contained: false, why: `no checkpoint takes back what it ${disclosure}` };
  const extra = input.writable.find((w) => !input.coverage.roots.some((c) => inside(w, c)));
  const cwd = input.cwd ?? input.roots[0] ?? '/';
  const named = namedTargets(command, cwd);
  // What the sandbox holds read-only (runs-later.ts: `.env`, `.logbook/`...) no command can change.
  const changeable = input.coverage.unheld.filter((u) => !heldReadOnly(u, input.coverage.roots));
  // A link out of the workspace lets the file tools, which run outside the sandbox, reach past it.
  const out = named.links.find((t) => !input.coverage.roots.some((c) => inside(t.path, c)));
  if (out)
    return { contained: false, why: `it links to ${out.path}, outside the folders a checkpoint holds` };
  const shared = hardLinked(named.targets.filter((t) => !t.prefix).map((t) => realPath(t.path)));
  if (shared) return { contained: false, why: shared };
  const code = buildFile(
    named.targets.filter((t) => !t.prefix).map((t) => t.path),
    input.coverage.roots,
  );
  if (code) return { contained: false, why: `${code}, which runs outside the sandbox when you run it` };
  const hit = firstUnheld(named.targets, changeable);
  if (hit)
    return {
      contained: false,
      why: `it may delete or overwrite ${describe(hit)}, which no checkpoint holds (${WHY[hit.why]})`,
      named: true,
    };
  if (named.opaque) {
    if (extra !== undefined)
      return { contained: false, why: `it may write ${extra}, a writable folder no checkpoint holds` };
    const precious = changeable.filter((u) => !isRebuildable(u, input.coverage.roots));
    if (precious.length > 0) {
      const shown = precious.slice(0, NAMED).map(describe).join(', ');
      const more = precious.length > NAMED ? ` and ${precious.length - NAMED} more` : '';
      return {
        contained: false,
        why: `it may write anywhere in the workspace, and no checkpoint holds ${shown}${more}`,
      };
    }
  }
  return { contained: true, reason: CONTAINED_REASON };
}

function fileVerdict(input: ContainedInput): ContainedVerdict {
  const raw = input.args.path;
  if (typeof raw !== 'string' || raw === '') return { contained: false };
  const path = resolve(input.roots[0] ?? '/', raw);
  // Judged where it leads too: a link in the workspace may point at a file no checkpoint holds.
  const real = realPath(path);
  const roots = [...input.coverage.roots, ...realRoots(input.coverage.roots)];
  if (!roots.some((c) => inside(real, c)))
    return { contained: false, why: `${path} lies outside the folders a checkpoint holds` };
  const shared = hardLinked([real]);
  if (shared) return { contained: false, why: shared };
  const code = buildFile([path, real], input.coverage.roots);
  if (code) return { contained: false, why: `${code}, which runs outside the sandbox when you run it` };
  const hit = firstUnheld(
    [
      { path, prefix: false },
      { path: real, prefix: false },
    ],
    input.coverage.unheld,
  );
  if (hit)
    return {
      contained: false,
      why: `it overwrites ${describe(hit)}, which no checkpoint holds (${WHY[hit.why]})`,
      named: true,
    };
  return { contained: true, reason: CONTAINED_REASON };
}

/**
 * Why one of the paths is a build or task file (code you will run, outside the sandbox), if one is.
 * Only reached for an action the rules rate MEDIUM or more, which for `package.json` means its
 * scripts change.
 */
function buildFile(paths: readonly string[], roots: readonly string[]): string | undefined {
  for (const path of paths) {
    const root = roots.find((r) => path !== r && inside(path, r));
    if (root === undefined) continue;
    const base = root.endsWith('/') ? root : `${root}/`;
    const reason = buildFileReason(path.slice(base.length));
    if (reason) return reason;
  }
  return undefined;
}

/** Why writing one of the files in place changes the same file elsewhere (it has more hard links). */
function hardLinked(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    try {
      const st = lstatSync(path);
      if (st.isFile() && st.nlink > 1)
        return `${path} has ${st.nlink} hard links, and a checkpoint holds only this one`;
    } catch {
      // not there yet: a new file has no other names
    }
  }
  return undefined;
}

/** Whether the sandbox mounts this path read-only (a file that runs later), so commands cannot change it. */
function heldReadOnly(u: UnheldPath, roots: readonly string[]): boolean {
  const path = u.path.endsWith('/') ? u.path.slice(0, -1) : u.path;
  const root = roots.find((r) => path !== r && inside(path, r));
  if (root === undefined) return false;
  const base = root.endsWith('/') ? root : `${root}/`;
  return entryHolding(path.slice(base.length)) !== undefined;
}

const WHY: Record<UnheldReason, string> = {
  ignored: 'ignored',
  excluded: 'excluded',
  'too-large': 'too large',
  'over-budget': 'over the size budget',
};

function describe(u: UnheldPath): string {
  return u.path;
}

/** A path a command names to change; `prefix`: a glob, standing for every path that starts so. */
interface Target {
  path: string;
  prefix: boolean;
}

/** The first unheld path a target is, lies under, or holds. */
function firstUnheld(targets: readonly Target[], unheld: readonly UnheldPath[]): UnheldPath | undefined {
  for (const t of targets)
    for (const u of unheld) {
      const folder = u.path.endsWith('/') ? u.path.slice(0, -1) : u.path;
      if (
        t.prefix
          ? folder.startsWith(t.path) || inside(folder, t.path)
          : inside(t.path, folder) || inside(folder, t.path)
      )
        return u;
    }
  return undefined;
}

function inside(path: string, folder: string): boolean {
  const base = folder.endsWith('/') && folder.length > 1 ? folder.slice(0, -1) : folder;
  return path === base || path.startsWith(base === '/' ? '/' : `${base}/`);
}

/** Programs whose operands are the paths they delete or overwrite. */
const WRITERS: ReadonlySet<string> = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'mv',
  'cp',
  'touch',
  'truncate',
  'tee',
  'ln',
  'chmod',
  'sed',
  'install',
]);

/**
 * Programs that change nothing but their redirections (git changes its own repository, whose
 * history keeps what it replaces; a push or a destructive git command is rated apart).
 */
const QUIET: ReadonlySet<string> = new Set([
  'cat',
  'echo',
  'printf',
  'grep',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'ls',
  'cd',
  'pwd',
  'true',
  'false',
  'diff',
  'basename',
  'dirname',
  'realpath',
  'test',
  '[',
  'mkdir',
  'git',
  'tr',
  'cut',
  'date',
  'which',
  'stat',
  'file',
  'du',
  'df',
  'tree',
]);

/**
 * The paths a command names to write, from its words (each segment's program and operands, and its
 * redirections); `opaque` when some program may write paths it does not name.
 */
function namedTargets(command: string, cwd: string): { targets: Target[]; links: Target[]; opaque: boolean } {
  const targets: Target[] = [];
  const links: Target[] = [];
  let opaque = false;
  const places = [cwd];
  for (const segment of command.split(/;|&&|\|\||\||\n|\(|\)|`|\$\(/)) {
    for (const m of segment.matchAll(/(?:\d|&)?>>?\|?\s*([^\s<>&;|]+)/g)) {
      const word = unquote(m[1]!);
      if (word !== '') targets.push(...targetsOf(word, places));
    }
    const words = segment
      .replace(/(?:\d|&)?>>?\|?\s*[^\s<>&;|]+/g, ' ')
      .split(/\s+/)
      .map(unquote)
      .filter((w) => w !== '' && w !== '&');
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
    const first = words[0];
    if (first === undefined) continue;
    const program = first.slice(first.lastIndexOf('/') + 1);
    const operands = words.slice(1).filter((w) => !w.startsWith('-'));
    if (program === 'cd') {
      const to = operands[0];
      // Where an unknown `cd` leads, relative paths may start in any folder of the workspace.
      if (to === undefined || /[$~`*?[]/.test(to) || to === '-') places.push('');
      else places.push(resolve(cwd, to));
      continue;
    }
    if (program === 'ln') for (const word of operands) links.push(...targetsOf(word, places));
    if (WRITERS.has(program)) for (const word of operands) targets.push(...targetsOf(word, places));
    else if (!QUIET.has(program)) opaque = true;
  }
  return { targets, links, opaque };
}

/** Where a word may lead from each place the shell may be ('' stands for "anywhere"). */
function targetsOf(word: string, places: readonly string[]): Target[] {
  if (word.startsWith('~')) return [];
  const unknown = word.search(/[$`]/);
  const glob = word.search(/[*?[]/);
  const cut = [unknown, glob].filter((i) => i >= 0).sort((a, b) => a - b)[0];
  const fixed = cut === undefined ? word : word.slice(0, cut);
  return places.map((place) => {
    if (isAbsolute(fixed))
      return cut === undefined ? { path: resolve(fixed), prefix: false } : { path: fixed, prefix: true };
    // From an unknown folder: whatever the word may be relative to.
    if (place === '') return { path: '/', prefix: true };
    if (cut === undefined) return { path: resolve(place, fixed), prefix: false };
    const base = resolve(place, fixed === '' ? '.' : fixed);
    return { path: fixed === '' || fixed.endsWith('/') ? `${base}/` : base, prefix: true };
  });
}

function unquote(word: string): string {
  return word.replace(/^['"]|['"]$/g, '');
}
