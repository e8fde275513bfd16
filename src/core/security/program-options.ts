// Options with which a known program starts another program of the caller's choosing: ripgrep's
// `--pre`, tar's `--to-command`, sort's `--compress-program`, less's `+!cmd`... Such a command
// runs code the analysis cannot see, so it is at least MEDIUM (and never read-only), whatever the
// program's own rule says. GNU tools accept any unambiguous abbreviation of a long option
// (`tar --to-com=sh`), so those are matched by prefix.
import { operands } from './argv-options';
import { type Finding, medium, printsEnvironment } from './risk';

interface LongOption {
  name: string;
  /** Other options of the program whose full name is a prefix of `name` (they win when given whole). */
  shadowedBy?: readonly string[];
  /** Only a value matching this runs a program (`--checkpoint-action=exec=…`). */
  value?: RegExp;
}

interface ProgramOptions {
  long: readonly LongOption[];
  /** Short option letters that run a program, in any cluster (`-xIzstd`, `-avze ssh`). */
  short?: string;
  /** Whether long options may be abbreviated (GNU getopt_long, Perl's Getopt::Long). */
  abbreviates?: boolean;
  /** Extra test of whole words (`zip -TT`, `less +!cmd`). */
  word?: RegExp;
  /** A first word without a dash is a cluster of old-style options (`tar xIf`). */
  oldStyle?: boolean;
}

const TABLE: Record<string, ProgramOptions> = {
  rg: { long: [{ name: 'pre' }, { name: 'hostname-bin' }] },
  ag: { long: [{ name: 'pager' }], abbreviates: true },
  ack: { long: [{ name: 'pager' }], abbreviates: true },
  tar: {
    long: [
      { name: 'use-compress-program' },
      { name: 'to-command' },
      { name: 'checkpoint-action', shadowedBy: ['checkpoint'], value: /exec/ },
      { name: 'info-script' },
      { name: 'new-volume-script' },
      { name: 'rsh-command' },
      { name: 'rmt-command' },
    ],
    short: 'IF',
    abbreviates: true,
    oldStyle: true,
  },
  sort: { long: [{ name: 'compress-program' }], abbreviates: true },
  zip: { long: [{ name: 'unzip-command' }], word: /^-TT/ },
  rsync: { long: [{ name: 'rsh' }, { name: 'rsync-path' }], short: 'e', abbreviates: true },
  ssh: { long: [], word: /(ProxyCommand|LocalCommand|KnownHostsCommand|^Match\b.*\bexec\b)/i },
  scp: { long: [], short: 'S', word: /(ProxyCommand|LocalCommand|KnownHostsCommand)/i },
  sftp: { long: [], short: 'SD', word: /(ProxyCommand|LocalCommand|KnownHostsCommand)/i },
  // less runs `!cmd` and `|cmd` given as start-up commands; a lesskey file can set LESSOPEN.
  less: {
    long: [{ name: 'lesskey-file' }, { name: 'lesskey-src' }, { name: 'lesskey-content' }],
    short: 'k',
    word: /^\+.*[!|]/,
  },
  man: { long: [{ name: 'pager' }, { name: 'html' }, { name: 'browser' }], short: 'PH', abbreviates: true },
};

/** Whether `arg` is `--name` or `--name=…`, or (abbreviating programs) an abbreviation of it. */
function givesLong(arg: string, option: LongOption, abbreviates: boolean): boolean {
  const given = arg.slice(2).split('=')[0]!;
  if (given === option.name) return true;
  return abbreviates && given !== '' && option.name.startsWith(given) && !option.shadowedBy?.includes(given);
}

/** Findings for options of `name` that start other programs; [] when there are none. */
export function programOptionFindings(name: string, args: readonly string[]): Finding[] {
  const options = Object.hasOwn(TABLE, name) ? TABLE[name]! : undefined;
  const found: string[] = [];
  if (options) {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--') break;
      if (arg.startsWith('--')) {
        for (const option of options.long) {
          if (!givesLong(arg, option, options.abbreviates === true)) continue;
          const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (args[i + 1] ?? '');
          if (!option.value || option.value.test(value)) found.push(`--${option.name}`);
        }
      } else if (options.word?.test(arg)) {
        found.push(arg);
      } else {
        const cluster =
          /^-[A-Za-z]/.test(arg) || (options.oldStyle === true && i === 0 && /^[A-Za-z]+$/.test(arg));
        const letter = cluster ? [...(options.short ?? '')].find((l) => arg.includes(l)) : undefined;
        if (letter) found.push(`-${letter}`);
      }
    }
  }
  const findings = found.map((o) => medium(`${name} ${o} starts another program, which cannot be checked`));
  if (AWK.has(name)) findings.push(...awkFindings(args));
  if ((name === 'jq' || name === 'yq') && /\benv\b|\$ENV\b|\bstrenv\b/.test(operands(args)[0] ?? ''))
    findings.push(printsEnvironment(name));
  return findings;
}

const AWK = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);

/**
 * awk runs commands through system(), `print | cmd` and `cmd | getline` (the command may be a
 * variable), writes with `print > f`, and loads code with -f, -E, -i, -l, @include, @load.
 */
function awkFindings(args: readonly string[]): Finding[] {
  const fromFile = args.some((a) => /^(-[fEil]|--(file|exec|include|load)(=|$))/.test(a));
  if (fromFile) return [medium('the awk program comes from a file or extension, which cannot be checked')];
  const program = operands(args, ['-F', '-v', '--assign', '--field-separator'])[0] ?? '';
  const code = awkCode(program);
  if (/\bsystem\s*\(|\|/.test(code) || /@(load|include)\b/.test(code))
    return [medium('the awk program runs commands')];
  if (/\bprintf?\b[^;{}\n]*>/.test(code) || /\bgetline\b/.test(code))
    return [medium('the awk program reads or writes files it names')];
  if (/\bENVIRON\b|\bPROCINFO\b/.test(code))
    return [medium('the awk program reads environment variables, which may include secrets')];
  return [];
}

/** awk code without its strings and regular expressions, and with `||` taken out, so `|` is a pipe. */
function awkCode(program: string): string {
  let out = '';
  let previous = '';
  for (let i = 0; i < program.length; i++) {
    const ch = program[i]!;
    if (ch === '"' || (ch === '/' && /^$|[(,~!{};&|=\n]$/.test(previous))) {
      let j = i + 1;
      while (j < program.length && program[j] !== ch) j += program[j] === '\\' ? 2 : 1;
      out += ' "" ';
      i = j;
      previous = '"';
      continue;
    }
    out += ch;
    if (!/\s/.test(ch)) previous = ch;
  }
  return out.replace(/\|\|/g, ' or ');
}
