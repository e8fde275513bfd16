// What a sed script does besides printing: GNU sed's `e` command and `s///e` flag run commands, `w`,
// `W` and `s///w file` write files, `r` and `R` read them. The script is found where sed finds it
// (`-e`, `--expression`, abbreviations such as `--e=`, clusters such as `-ne`, else the first
// operand) and read command by command; a script in a file, or one this reader does not follow,
// is not LOW.
import { type Finding, medium } from './risk';
import type { RuleContext } from './rule-types';

const LONG = [
  'expression', 'file', 'in-place', 'line-length', 'null-data', 'zero-terminated', 'quiet', 'silent',
  'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'posix', 'debug', 'follow-symlinks', 'binary',
  'help', 'version',
]; // prettier-ignore

/** The long option `--given` stands for (GNU accepts unambiguous prefixes); ambiguous: undefined. */
function longName(given: string): string | undefined {
  if (LONG.includes(given)) return given;
  const matches = LONG.filter((n) => n.startsWith(given));
  return matches.length === 1 ? matches[0] : undefined;
}

interface SedInvocation {
  scripts: string[];
  scriptFiles: string[];
  sandbox: boolean;
  /** `--in-place` given abbreviated (`--in-pl`), which a reader of whole names misses. */
  abbreviatedInPlace: boolean;
  operands: string[];
  /** An option this reader does not know (it could be a script option in disguise). */
  unknown: boolean;
}

function readInvocation(args: readonly string[]): SedInvocation {
  const found: SedInvocation = {
    scripts: [],
    scriptFiles: [],
    sandbox: false,
    abbreviatedInPlace: false,
    unknown: false,
    operands: [],
  };
  const operands = found.operands;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = longName(arg.slice(2, eq === -1 ? undefined : eq));
      const value = () => (eq === -1 ? (args[++i] ?? '') : arg.slice(eq + 1));
      if (name === 'expression') found.scripts.push(value());
      else if (name === 'file') found.scriptFiles.push(value());
      else if (name === 'line-length' && eq === -1) i++;
      else if (name === 'sandbox') found.sandbox = true;
      else if (name === 'in-place' && !arg.startsWith('--in-place')) found.abbreviatedInPlace = true;
      else if (name === undefined) found.unknown = true;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (letter === 'i') break; // -i[SUFFIX]: the rest of the cluster is the suffix
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? '');
          if (letter === 'e') found.scripts.push(value);
          if (letter === 'f') found.scriptFiles.push(value);
          break;
        }
        if (!'nrEsuzb'.includes(letter)) found.unknown = true;
      }
      continue;
    }
    operands.push(arg);
  }
  if (found.scripts.length === 0 && found.scriptFiles.length === 0 && operands[0] !== undefined)
    found.scripts.push(operands[0]);
  return found;
}

/** What one script does: commands it runs (text, or '' for "the pattern space"), files it writes and reads. */
export interface SedEffects {
  runs: string[];
  writes: string[];
  reads: string[];
  /** The reader lost its way: the script may do anything. */
  unclear: boolean;
}

export function sedEffects(script: string): SedEffects {
  const fx: SedEffects = { runs: [], writes: [], reads: [], unclear: false };
  const s = script;
  let i = 0;
  const restOfLine = (): string => {
    const end = s.indexOf('\n', i);
    const text = s.slice(i, end === -1 ? s.length : end);
    i = end === -1 ? s.length : end + 1;
    return text.replace(/^\s+/, '');
  };
  const skipRegex = (delim: string): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === '\\') i += 2;
      else if (s[i] === '[') {
        const close = s.indexOf(']', i + (s[i + 1] === '^' ? 3 : 2));
        if (close === -1) return false;
        i = close + 1;
      } else i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const skipAddress = (): boolean => {
    if (/\d/.test(s[i] ?? '')) {
      while (/[\d~]/.test(s[i] ?? '')) i++;
    } else if (s[i] === '$') i++;
    else if (s[i] === '/' || s[i] === '\\') {
      const delim = s[i] === '\\' ? s[i + 1] : '/';
      i += s[i] === '\\' ? 2 : 1;
      if (delim === undefined || !skipRegex(delim)) return false;
      while (/[IM]/.test(s[i] ?? '')) i++;
    } else if (s[i] === '+' || s[i] === '~') {
      i++;
      while (/\d/.test(s[i] ?? '')) i++;
    }
    return true;
  };
  while (i < s.length) {
    const ch = s[i]!;
    if (/[\s;{}!]/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '#') {
      restOfLine();
      continue;
    }
    if (!skipAddress()) return { ...fx, unclear: true };
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (s[i] === ',') {
      i++;
      while (s[i] === ' ') i++;
      if (!skipAddress()) return { ...fx, unclear: true };
    }
    while (/[\s!]/.test(s[i] ?? '')) i++;
    const command = s[i];
    if (command === undefined) break;
    i++;
    if ('{};'.includes(command)) continue;
    if ('=dDgGhHlLnNpPxzFqQv'.includes(command)) {
      while (/[ \t\d]/.test(s[i] ?? '')) i++; // q 5, l 70
    } else if (':btT'.includes(command)) {
      while (i < s.length && !/[;\n]/.test(s[i]!)) i++;
    } else if ('aic'.includes(command)) {
      while (i < s.length) {
        const line = restOfLine();
        if (!line.endsWith('\\')) break;
      }
    } else if ('rR'.includes(command)) fx.reads.push(restOfLine());
    else if ('wW'.includes(command)) fx.writes.push(restOfLine());
    else if (command === 'e') fx.runs.push(restOfLine());
    else if (command === 's' || command === 'y') {
      const delim = s[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') return { ...fx, unclear: true };
      if (!skipRegex(delim)) return { ...fx, unclear: true };
      while (i < s.length && s[i] !== delim) i += s[i] === '\\' ? 2 : 1; // replacement
      if (i >= s.length) return { ...fx, unclear: true };
      i++;
      if (command === 's') {
        while (/[gpiImMe\d]/.test(s[i] ?? '')) if (s[i++] === 'e') fx.runs.push('');
        if (s[i] === 'w') {
          i++;
          fx.writes.push(restOfLine());
        }
      }
      if (i < s.length && !/[\s;}#]/.test(s[i]!)) return { ...fx, unclear: true };
    } else return { ...fx, unclear: true };
  }
  return fx;
}

/** Findings for what sed's scripts run, write and read; [] when they only print. */
export function sedScriptFindings(args: readonly string[], ctx: RuleContext): Finding[] {
  const call = readInvocation(args);
  const findings: Finding[] = [];
  if (call.unknown) findings.push(medium('sed is given an option that is not understood'));
  if (call.abbreviatedInPlace) {
    const files =
      call.scripts.length > 0 && call.operands[0] === call.scripts[0]
        ? call.operands.slice(1)
        : call.operands;
    findings.push(
      ...files.flatMap((f) => ctx.writeBoundary(f, 'edits in place')),
      medium('edits files in place'),
    );
  }
  if (call.scriptFiles.length > 0)
    findings.push(medium(`the sed script in ${call.scriptFiles.join(', ')} cannot be checked`));
  for (const script of call.scripts) {
    const fx = sedEffects(script);
    if (fx.unclear)
      findings.push(medium('the sed script cannot be fully read, so it may run commands or write files'));
    if (call.sandbox) continue; // --sandbox refuses e, r and w
    for (const command of fx.runs) {
      findings.push(
        medium(command ? `the sed script runs ${command}` : 'the sed script runs edited lines as commands'),
      );
      if (command) findings.push(...ctx.analyzeText(command));
    }
    for (const file of fx.writes) findings.push(...ctx.writeTarget(file));
    for (const file of fx.reads) findings.push(...ctx.readTarget(file));
  }
  return findings;
}
