// Command-line parsing on node:util's parseArgs (strict: unknown options are errors), with every
// failure turned into a UsageError that names the command.
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes';

type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
type Values<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean'
    ? boolean
    : O[K]['multiple'] extends true
      ? string[]
      : string;
};

export interface Parsed<O extends Record<string, OptionSpec>> {
  values: Values<O>;
  positionals: string[];
}

/** Every command takes --help. */
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

export function parseCommandArgs<O extends Record<string, OptionSpec>>(
  command: string,
  argv: readonly string[],
  options: O,
): Parsed<O & typeof HELP> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...options, ...HELP },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values<O & typeof HELP>, positionals };
  } catch (err) {
    throw new UsageError(`logbook ${command}: ${(err as Error).message}`);
  }
}

/** Checks the number of positional arguments; `names` are shown in the message. */
export function expectPositionals(
  command: string,
  positionals: readonly string[],
  names: string[],
): string[] {
  if (positionals.length !== names.length) {
    const want = names.length === 0 ? 'no arguments' : names.join(' ');
    const got = positionals.length === 0 ? 'none' : positionals.map((p) => JSON.stringify(p)).join(' ');
    throw new UsageError(`logbook ${command}: expected ${want}, got ${got}.`);
  }
  return [...positionals];
}

/** A positive integer option, or undefined when absent. */
export function positiveInt(command: string, name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`logbook ${command}: --${name} must be a positive integer, got "${value}".`);
  }
  return Number(value);
}

/** A string option that must not be empty when given. */
export function nonEmpty(command: string, name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') {
    throw new UsageError(`logbook ${command}: --${name} must not be empty.`);
  }
  return value;
}
