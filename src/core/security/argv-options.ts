// Reading options out of an argument list the way most Unix tools do: short flags cluster (-rf),
// long ones may carry `=value`, `--` ends options, and some options take the next word as value.

/** Letters of the short-flag clusters (`-rf` gives r and f) before `--`. */
export function shortFlags(args: readonly string[]): Set<string> {
  const letters = new Set<string>();
  for (const arg of args) {
    if (arg === '--') break;
    if (/^-[A-Za-z]+$/.test(arg)) for (const ch of arg.slice(1)) letters.add(ch);
  }
  return letters;
}

/** True when a short flag letter (in any cluster) or a long option (`--name`, `--name=x`) is present. */
export function hasOption(args: readonly string[], short: string | null, ...long: string[]): boolean {
  if (short !== null && shortFlags(args).has(short)) return true;
  for (const arg of args) {
    if (arg === '--') break;
    if (long.some((name) => arg === `--${name}` || arg.startsWith(`--${name}=`))) return true;
  }
  return false;
}

/** Value of an option given as `-o value`, `-ovalue`, `--long value` or `--long=value`. */
export function optionValue(
  args: readonly string[],
  short: string | null,
  ...long: string[]
): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (short !== null && arg === `-${short}`) return args[i + 1];
    if (short !== null && arg.startsWith(`-${short}`) && !arg.startsWith('--') && arg.length > 2)
      return arg.slice(2);
    for (const name of long) {
      if (arg === `--${name}`) return args[i + 1];
      if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
    }
  }
  return undefined;
}

/**
 * The arguments that are not options. `withValue` lists options whose value is the next word
 * (`-n`, `--output`), so that value is not mistaken for an operand.
 */
export function operands(args: readonly string[], withValue: readonly string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return [...out, ...args.slice(i + 1)];
    if (arg.startsWith('-') && arg !== '-') {
      if (withValue.includes(arg)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * For wrappers (`sudo -u bob cmd`, `timeout -s KILL 5 cmd`): the arguments from the first operand
 * on, i.e. the wrapped command line. `withValue` as in `operands`.
 */
export function afterOptions(args: readonly string[], withValue: readonly string[] = []): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return args.slice(i + 1);
    if (!arg.startsWith('-') || arg === '-') return args.slice(i);
    if (withValue.includes(arg)) i++;
  }
  return [];
}

/** The last path segment of a program name (`/usr/bin/rm` is `rm`). */
export function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
