// Terminal reads outside the workspace folders: `cat /etc/passwd`, `cat ../x`, `find /`, `ls` after
// `cd /`. Where no sandbox runs the rules are the only fence, so such a read asks (MEDIUM) and names
// the path; inside the sandbox it is contained (the secret locations and denied paths are hidden
// there), and plan mode still counts it as a read. Only programs that read the files their
// operands name are judged, with their patterns, filters and option values left out, so `echo /x`
// or `grep /api src` read nothing outside. Secrets and private files are judged elsewhere (HIGH /
// MEDIUM by sensitive-paths.ts whatever the folder).
import { afterOptions, hasOption, programName } from './argv-options';
import type { RuleContext } from './rule-types';
import { isInsideAny } from './resolve-path';
import { contained, type Finding, medium } from './risk';
import { isHarmlessSink } from './sensitive-paths';

interface ReadSpec {
  /** How the reason names what it does with the path. */
  verb: 'reads' | 'lists' | 'searches';
  /** Options whose value is the next word (their value is not a file). */
  withValue?: readonly string[];
  /** How many leading operands are not files (a pattern, a filter, an awk program). */
  leading?: (args: readonly string[]) => number;
  /** Without a file operand the program reads the working folder. */
  readsCwd?: (args: readonly string[]) => boolean;
  /** Operands that are not files (awk's `var=value`). */
  skip?: (word: string) => boolean;
}

const always = () => true;
const patternFirst =
  (...given: string[]) =>
  (args: readonly string[]) =>
    given.some((o) =>
      args.some((a) => a === o || a.startsWith(`${o}=`) || (o.length === 2 && a.startsWith(o))),
    )
      ? 0
      : 1;
const recursive = (args: readonly string[]) => hasOption(args, 'r', 'recursive') || hasOption(args, 'R');

const CONTENTS: ReadSpec = { verb: 'reads' };
const LIST = (withValue: readonly string[] = []): ReadSpec => ({
  verb: 'lists',
  withValue,
  readsCwd: always,
});
const GREP: ReadSpec = {
  verb: 'searches',
  withValue: ['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count', '--label'],
  leading: patternFirst('-e', '-f', '--regexp', '--file'),
  readsCwd: recursive,
};
const SEARCHER = (withValue: readonly string[], noPattern: readonly string[] = []): ReadSpec => ({
  verb: 'searches',
  withValue,
  leading: (args) =>
    noPattern.some((o) => args.includes(o)) ? 0 : patternFirst('-e', '-f', '--regexp', '--file')(args),
  readsCwd: always,
});
const AWK: ReadSpec = {
  verb: 'reads',
  withValue: ['-F', '-v', '-f', '--field-separator', '--assign', '--file'],
  leading: patternFirst('-f', '--file'),
  skip: (w) => /^[A-Za-z_]\w*=/.test(w),
};

const SPECS: Record<string, ReadSpec> = {
  ls: LIST(['-I', '-w', '-T', '--ignore', '--hide', '--width', '--tabsize', '--format', '--sort']),
  dir: LIST(['-I', '-w', '-T']),
  vdir: LIST(['-I', '-w', '-T']),
  tree: LIST(['-L', '-I', '-P', '-o', '--filelimit', '--charset']),
  du: LIST(['-d', '-B', '-t', '-X', '--max-depth', '--block-size', '--threshold', '--exclude-from']),
  cat: CONTENTS,
  tac: CONTENTS,
  rev: CONTENTS,
  tsort: CONTENTS,
  less: { verb: 'reads', withValue: ['-o', '-O', '-p', '-x', '-b', '-h', '-y', '-z', '-j'] },
  more: CONTENTS,
  zcat: CONTENTS,
  bzcat: CONTENTS,
  xzcat: CONTENTS,
  wc: CONTENTS,
  file: { verb: 'reads', withValue: ['-m', '-f', '-F', '-P'] },
  stat: { verb: 'reads', withValue: ['-c', '--format', '--printf'] },
  strings: { verb: 'reads', withValue: ['-n', '-t', '-e', '-T'] },
  md5sum: CONTENTS,
  sha1sum: CONTENTS,
  sha256sum: CONTENTS,
  sha512sum: CONTENTS,
  shasum: { verb: 'reads', withValue: ['-a', '--algorithm'] },
  cksum: CONTENTS,
  b2sum: { verb: 'reads', withValue: ['-l', '--length'] },
  head: { verb: 'reads', withValue: ['-n', '-c', '--lines', '--bytes'] },
  tail: { verb: 'reads', withValue: ['-n', '-c', '-s', '--lines', '--bytes', '--sleep-interval', '--pid'] },
  cut: {
    verb: 'reads',
    withValue: [
      '-d',
      '-f',
      '-b',
      '-c',
      '--delimiter',
      '--fields',
      '--bytes',
      '--characters',
      '--output-delimiter',
    ],
  },
  sort: {
    verb: 'reads',
    withValue: ['-t', '-k', '-o', '-S', '-T', '--field-separator', '--key', '--output'],
  },
  uniq: { verb: 'reads', withValue: ['-f', '-s', '-w'] },
  paste: { verb: 'reads', withValue: ['-d', '--delimiters'] },
  join: { verb: 'reads', withValue: ['-t', '-j', '-1', '-2', '-o', '-e', '-a', '-v'] },
  comm: CONTENTS,
  diff: { verb: 'reads', withValue: ['-x', '-X', '-I', '-U', '-C', '-F', '-L', '--label', '--exclude'] },
  cmp: { verb: 'reads', withValue: ['-i', '-n', '--ignore-initial', '--bytes'] },
  nl: { verb: 'reads', withValue: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'] },
  fold: { verb: 'reads', withValue: ['-w', '--width'] },
  fmt: { verb: 'reads', withValue: ['-w', '-p', '--width', '--prefix'] },
  expand: { verb: 'reads', withValue: ['-t', '--tabs'] },
  unexpand: { verb: 'reads', withValue: ['-t', '--tabs'] },
  column: { verb: 'reads', withValue: ['-s', '-c', '-o', '-N', '-t'] },
  xxd: { verb: 'reads', withValue: ['-s', '-l', '-c', '-g', '-o'] },
  od: { verb: 'reads', withValue: ['-A', '-j', '-N', '-t', '-w', '-S'] },
  hexdump: { verb: 'reads', withValue: ['-e', '-f', '-n', '-s'] },
  jq: {
    verb: 'reads',
    withValue: ['--indent', '-L', '--arg', '--argjson', '--slurpfile', '--rawfile'],
    leading: patternFirst('-f', '--from-file'),
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: SEARCHER(
    ['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-j', '-M', '-r', '--glob', '--type'],
    ['--files', '--type-list'],
  ),
  ag: SEARCHER(['-G', '-m', '-A', '-B', '-C', '-p', '--ignore', '--depth']),
  ack: SEARCHER(['-m', '-A', '-B', '-C', '--type']),
  sed: {
    verb: 'reads',
    withValue: ['-e', '-f', '-l', '--expression', '--file', '--line-length'],
    leading: patternFirst('-e', '-f', '--expression', '--file'),
  },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
};

/** The option pairs `--arg name value` take two words after the option. */
const TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);

/** Findings for what `argv[0]` reads outside the workspace folders (and the readable ones). */
export function outsideReadFindings(word: string, args: readonly string[], ctx: RuleContext): Finding[] {
  const name = programName(word);
  if (name === 'find') return findReads(args, ctx);
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name]! : undefined;
  if (!spec) return [];
  const files = fileOperands(args, spec);
  if (files.length === 0) return spec.readsCwd?.(args) ? cwdRead(`${name} ${spec.verb}`, ctx) : [];
  return files.flatMap((file) => outsideRead(file, `${spec.verb}`, ctx));
}

/** `find a b -name x`: the folders before the first expression word (`.` when none). */
function findReads(args: readonly string[], ctx: RuleContext): Finding[] {
  const options = new Set(['-H', '-L', '-P', '-O0', '-O1', '-O2', '-O3']);
  const from = afterOptions(args.filter((a) => !options.has(a) && !/^-D$/.test(a)));
  const first = from.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const roots = first === -1 ? from : from.slice(0, first);
  return roots.length === 0
    ? cwdRead('find lists', ctx)
    : roots.flatMap((root) => outsideRead(root, 'find lists', ctx));
}

function fileOperands(args: readonly string[], spec: ReadSpec): string[] {
  const withValue = new Set(spec.withValue ?? []);
  const out: string[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!ended && arg === '--') {
      ended = true;
      continue;
    }
    if (!ended && arg.startsWith('-') && arg !== '-') {
      if (TWO_VALUES.has(arg)) i += 2;
      else if (withValue.has(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out.slice(spec.leading?.(args) ?? 0).filter((w) => !spec.skip?.(w));
}

/** The working folder, when it is known and outside (a relative `ls` after `cd /`). */
export function cwdRead(what: string, ctx: RuleContext): Finding[] {
  if (ctx.cwd === null || ctx.cwd === undefined) return [];
  return isOutside(ctx.cwd, ctx) ? [outsideFinding(`${what} ${ctx.cwd}, the shell's folder`)] : [];
}

/** A read of `word` where it leads outside; [] inside, for streams and for words decided at run time. */
export function outsideRead(word: string, verb: string, ctx: RuleContext): Finding[] {
  if (isHarmlessSink(word) || /^\/dev\/(zero|u?random|stdin)$/.test(word)) return [];
  const place = ctx.locate(word);
  if (!place || !isOutside(place.real, ctx)) return [];
  // A secret or private file is rated on its own (sensitive-paths.ts), more precisely.
  if (ctx.readTarget(word).length > 0) return [];
  const name = place.real === place.path ? place.real : `${word} (which leads to ${place.real})`;
  return [outsideFinding(`${verb} ${name}`)];
}

function isOutside(real: string, ctx: RuleContext): boolean {
  return ctx.roots.length > 0 && !isInsideAny(real, [...ctx.roots, ...ctx.readable]);
}

const SANDBOX_NOTE = 'readable in the sandbox, which hides the secret locations';

function outsideFinding(what: string): Finding {
  return { ...contained(medium(`${what}, outside the workspace`), SANDBOX_NOTE), reads: true };
}
