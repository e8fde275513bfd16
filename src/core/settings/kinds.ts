// The kinds of value a setting holds. Each kind knows its JSON type (as package.json states it),
// how to check a value (zod) and how to read one from text (an environment variable or a flag).
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';

/** A value that cannot be read; `expect` completes "must be …". */
export class TextValueError extends Error {
  override name = 'TextValueError';
}

export interface JsonType {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  nullable?: boolean;
  enum?: readonly string[];
}

export interface Kind<T> {
  json: JsonType;
  zod: z.ZodType<T>;
  /** What a valid value is, completing "must be …". */
  expect: string;
  /** Reads the value from the text of a variable or flag (already trimmed, never blank). */
  fromText(text: string): unknown;
}

const ONE_OF = (choices: readonly string[]) => `one of ${choices.join(', ')}`;

export function text(): Kind<string> {
  return { json: { type: 'string' }, zod: lazySchema(() => z.string()), expect: 'text', fromText: (t) => t };
}

export function choice<const C extends readonly [string, ...string[]]>(choices: C): Kind<C[number]> {
  return {
    json: { type: 'string', enum: choices },
    zod: lazySchema(() => z.enum(choices)),
    expect: ONE_OF(choices),
    fromText: (t) => t,
  };
}

const WHOLE = /^\d+$/;
const DECIMAL = /^\d*\.?\d+$/;

/** A whole number of at least `min`. */
export function integer(min: number, max?: number): Kind<number> {
  const zod = lazySchema(() =>
    max === undefined ? z.number().int().min(min) : z.number().int().min(min).max(max),
  );
  return {
    json: { type: 'integer' },
    zod,
    expect: min === 1 && max === undefined ? 'a positive integer' : `a whole number from ${min}`,
    fromText: (t) => (WHOLE.test(t) ? Number(t) : t),
  };
}

/** A number above `above` (or at least `min`). */
export function decimal(bound: { above: number } | { min: number }): Kind<number> {
  const zod = lazySchema(() => ('above' in bound ? z.number().gt(bound.above) : z.number().min(bound.min)));
  return {
    json: { type: 'number' },
    zod,
    expect: 'above' in bound ? `a number above ${bound.above}` : `a number from ${bound.min}`,
    fromText: (t) => (DECIMAL.test(t) ? Number(t) : t),
  };
}

/** Empty (null) means "not set": the endpoint's default, no limit. */
export function orNull<T>(kind: Kind<T>): Kind<T | null> {
  return { ...kind, json: { ...kind.json, nullable: true }, zod: lazySchema(() => kind.zod.nullable()) };
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

export function flag(): Kind<boolean> {
  return {
    json: { type: 'boolean' },
    zod: lazySchema(() => z.boolean()),
    expect: `${TRUE.join('/')} or ${FALSE.join('/')}`,
    fromText: (t) => {
      const v = t.toLowerCase();
      return TRUE.includes(v) ? true : FALSE.includes(v) ? false : t;
    },
  };
}

/** Names in text are separated by `separator` (commas, or commas and spaces). */
export function list(separator: RegExp = /[\s,]+/): Kind<string[]> {
  return {
    json: { type: 'array' },
    zod: lazySchema(() => z.array(z.string())),
    expect: 'a list of text',
    fromText: (t) =>
      t
        .split(separator)
        .map((s) => s.trim())
        .filter(Boolean),
  };
}

/** A JSON object; `expect` names its shape. */
export function object<T extends Record<string, unknown>>(zod: z.ZodType<T>, expect: string): Kind<T> {
  return {
    json: { type: 'object' },
    zod,
    expect,
    fromText: (t) => {
      try {
        return JSON.parse(t) as unknown;
      } catch {
        throw new TextValueError(expect);
      }
    },
  };
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names of environment variables, separated by commas or spaces in text. */
export function variableNames(): Kind<string[]> {
  return {
    ...list(),
    zod: lazySchema(() => z.array(z.string().regex(VARIABLE_NAME))),
    expect: 'variable names',
  };
}
