// Paths in shell words, judged where they lead: `~` and `$HOME` expanded, `.`, `..` and `//`
// resolved, symlinks of existing ancestors followed (the same `realPath` the file tools are judged
// by), so `/tmp/../etc/x` is /etc/x. Words the shell expands (globs, variables, substitutions)
// are matched against the sensitive files they could reach.
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { type PathLookup, realPath } from './resolve-path';
import { SENSITIVE_READ_EXAMPLES, sensitiveReadReason } from './sensitive-paths';
import { hasSubstitution } from './shell-parse';
import { PLACEHOLDER } from './shell-scan';
import { BASH_GLOB, globRegExp } from '../text/glob';

export interface WordLocation {
  /** The absolute path the shell opens for the word (from the first workspace folder if relative). */
  path: string;
  /** Where that path really leads. */
  real: string;
}

const HOME_WORD = /^(~|\$HOME|\$\{HOME\})(?=\/|$)/;
const GLOB = /[*?[]/;
const MAX_BRACE_WORDS = 64;
/** Stands for a variable or substitution in a word: it may expand to anything, slashes included. */
const ANYTHING = '\u0000';

/**
 * Where a plain path word leads, or undefined for words decided at run time (variables other than
 * HOME, substitutions, `~user`) and relative words when there is no workspace folder to start from.
 * Glob characters are kept as literal names: the existing part before them is still resolved.
 */
export function locateWord(
  word: string,
  roots: readonly string[],
  lookup?: PathLookup,
  /** The shell's working directory when the word is used; null: decided at run time. */
  cwd?: string | null,
): WordLocation | undefined {
  const expanded = word.replace(HOME_WORD, () => homedir());
  if (expanded.includes('$') || hasSubstitution(expanded) || expanded.startsWith('~') || expanded === '') {
    return undefined;
  }
  const base = cwd === null ? undefined : (cwd ?? roots[0]);
  if (!isAbsolute(expanded) && base === undefined) return undefined;
  const path = isAbsolute(expanded) ? resolve(expanded) : resolve(base!, expanded);
  return { path, real: realPath(path, lookup) };
}

/**
 * Why reading what `word` names exposes private data (shadow files, process environments,
 * shell histories), counting what globs, braces and variables in it could expand to; undefined
 * when it cannot reach such a file or the file is inside the workspace (`inside` decides).
 */
export function sensitiveReadOfWord(
  word: string,
  roots: readonly string[],
  inside: (real: string) => boolean,
  lookup?: PathLookup,
  cwd?: string | null,
): string | undefined {
  const value = valueOf(word);
  // In a folder decided at run time a relative word may be anywhere: match it as `*/word`.
  const anchored = cwd === null && !isAbsolute(value) && !/^(~|\$)/.test(value) ? `$CWD/${value}` : value;
  for (const candidate of expandBraces(anchored)) {
    const place = locateWord(candidate, roots, lookup, cwd);
    if (place && !GLOB.test(candidate)) {
      if (inside(place.real)) continue;
      const reason = sensitiveReadReason(place.real) ?? sensitiveReadReason(place.path);
      if (reason) return reason;
      continue;
    }
    // Decided at run time: anything a glob could match, and anything at all where a variable or
    // substitution stands (a word that is only those and slashes is not judged: it could be any file).
    const dynamic = candidate
      .replace(/\$\{[^}]*\}|\$\w+|\$\$|\$[?!#@*-]/g, ANYTHING)
      .replace(new RegExp(PLACEHOLDER.source, 'g'), ANYTHING);
    if (dynamic.replaceAll(ANYTHING, '').replaceAll('/', '') === '') continue;
    const patterns = [dynamic, ...(place ? [place.path, place.real] : [])].map(globRegex);
    const reached = sensitiveExamples().find((example) => patterns.some((p) => p.test(example)));
    if (reached) return `${word}, which can expand to ${sensitiveReadReason(reached) ?? reached}`;
  }
  return undefined;
}

/** The shell's own process, whose environment is the agent's (LOGBOOK_* and keys are kept out of it). */
const OWN_PROCESS = /^\/proc\/(self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})\//;
const OTHER_ENVIRONS = ['/proc/1/environ', '/proc/1/task/1/environ'];
const OTHER_ENVIRON = /^\/proc\/[^/]+\/(task\/[^/]+\/)?environ$/;

/**
 * Whether `word` (a glob, braces and variables counted) can name the environment of another process
 * (`/proc/1/environ`, `/proc/$PPID/environ`, a glob over /proc): the agent's parent holds the
 * API key there.
 */
export function readsOtherProcessEnvironment(word: string, place?: WordLocation): boolean {
  // The path as written, not where it leads: /proc/self leads to the analysing process, not the shell.
  const candidates = [...expandBraces(valueOf(word)), ...(place ? [place.path] : [])];
  return candidates.some((candidate) => {
    // After `cd /proc/self`, the folder was resolved here, to this process's own number.
    if (OWN_PROCESS.test(candidate) || candidate.startsWith(`/proc/${process.pid}/`)) return false;
    const dynamic = candidate
      .replace(/\$\{[^}]*\}|\$\w+|\$\$|\$[?!#@*-]/g, ANYTHING)
      .replace(new RegExp(PLACEHOLDER.source, 'g'), ANYTHING);
    if (dynamic.replaceAll(ANYTHING, '').replaceAll('/', '') === '') return false; // could be any file
    const pattern = globRegex(dynamic);
    return OTHER_ENVIRON.test(candidate) || OTHER_ENVIRONS.some((example) => pattern.test(example));
  });
}

/** `if=/etc/shadow`, `--file=/etc/shadow`: the value after the first `=`; other words as they are. */
function valueOf(word: string): string {
  const eq = word.indexOf('=');
  return eq > 0 && !word.startsWith('/') && !word.startsWith('~') ? word.slice(eq + 1) : word;
}

function sensitiveExamples(): string[] {
  const home = homedir();
  return [
    ...SENSITIVE_READ_EXAMPLES,
    ...SENSITIVE_READ_EXAMPLES.filter((e) => e.startsWith('~/')).map((e) => home + e.slice(1)),
  ];
}

/** Bash brace expansion of comma lists (`/etc/{shadow,passwd}`), bounded. */
export function expandBraces(word: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!match) return [word];
  const before = word.slice(0, match.index);
  const after = word.slice(match.index + match[0].length);
  const words: string[] = [];
  for (const option of match[1]!.split(',')) {
    for (const rest of expandBraces(before + option + after)) {
      if (words.length >= MAX_BRACE_WORDS) return words;
      words.push(rest);
    }
  }
  return words;
}

/**
 * A bash glob (without globstar: `*` stays within one folder, and does not match a leading dot) as
 * a regular expression; the ANYTHING mark matches any text.
 */
export function globRegex(glob: string): RegExp {
  return globRegExp(glob, { ...BASH_GLOB, anything: ANYTHING });
}
