// Listing processes is routine (`ps aux`), but some listings show other processes' environments,
// where API keys and tokens live: BSD `ps e`, `ps -E`, an `environ` column. Secrets there cannot be
// caught by redacting their known values (a listing may transform them), so those are HIGH.
// Full command lines (`pgrep -a`, `top -c`) may carry secrets passed as arguments: MEDIUM.
import { hasOption } from './argv-options';
import { contained, type Finding, high, low, medium } from './risk';
import type { ProgramRule } from './rule-types';

const SHOWS_ENVIRONMENT = 'shows the environment of other processes, where secrets live';
/** A sandbox shows no other process (its own PID namespace): contained. */
const showsEnvironment = (what: string): Finding[] => [contained(high(`${what} ${SHOWS_ENVIRONMENT}`))];
/** Options taking a value: UNIX style (after -) and BSD style (no dash). */
const UNIX_VALUE = 'oOpuUgGtCsqk';
const BSD_VALUE = 'oOpUtkN';

const ps: ProgramRule = (args) => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s);
      const value = inline ?? args[i + 1] ?? '';
      if (/^(format|o)$/.test(name!) && /env/i.test(value)) return showsEnvironment(`ps --format ${value}`);
      continue;
    }
    const dashed = arg.startsWith('-');
    if (!/^-?[A-Za-z]/.test(arg)) continue; // a pid list or the like
    const letters = dashed ? arg.slice(1) : arg;
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j]!;
      if ((dashed && letter === 'E') || (!dashed && letter === 'e')) return showsEnvironment(`ps ${arg}`);
      if ((dashed ? UNIX_VALUE : BSD_VALUE).includes(letter)) {
        const value = j + 1 < letters.length ? letters.slice(j + 1) : (args[++i] ?? '');
        if ('oO'.includes(letter) && /env/i.test(value)) return showsEnvironment(`ps -o ${value}`);
        break;
      }
    }
  }
  return [low('ps only lists processes')];
};

const pgrep: ProgramRule = (args) =>
  hasOption(args, 'a', 'list-full')
    ? [medium('pgrep -a shows the full command lines of other processes, which may carry secrets')]
    : [low('pgrep only lists processes')];

const top: ProgramRule = (args) =>
  args.some((a) => /^-[A-Za-z]*c/.test(a))
    ? [medium('top -c shows the full command lines of other processes, which may carry secrets')]
    : [low('top only lists processes')];

export const PROCESS_RULES: Record<string, ProgramRule> = { ps, pgrep, top };
