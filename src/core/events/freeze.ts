/**
 * Deep immutability for events. Events are history: once written or read they must never change,
 * so they are frozen at creation/parse (run time) and typed `DeepReadonly` (compile time).
 */

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

export type DeepReadonly<T> = unknown extends T // `unknown`/`any` stay as they are (not `{}`)
  ? T
  : T extends Primitive
    ? T
    : T extends (...args: never[]) => unknown
      ? T
      : T extends readonly (infer U)[]
        ? readonly DeepReadonly<U>[]
        : { readonly [K in keyof T]: DeepReadonly<T[K]> };

/** Freezes `value` and everything reachable from it; returns the same reference. */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  freezeInPlace(value);
  return value as DeepReadonly<T>;
}

function freezeInPlace(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  // A frozen object may still hold unfrozen children (Object.freeze is shallow), so always recurse;
  // events are acyclic JSON trees, so this terminates.
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) {
    freezeInPlace((value as Record<PropertyKey, unknown>)[key]);
  }
}
