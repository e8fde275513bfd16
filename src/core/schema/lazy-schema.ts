/**
 * A schema built on first use. Modules the extension evaluates when it activates declared about 150
 * zod schemas at top level; building them all cost a fifth of activation, though activation parses
 * almost none of them (the settings' own schemas, used at once, are built as before).
 *
 * `lazySchema(() => z.object({ ... }))` stands for the schema `build` returns: the first read of any
 * member builds it (once), and every read, call and check after that goes to the built schema, so
 * parsing, composing and `instanceof` behave as with the schema itself. Use it only for schemas
 * that carry no metadata (`.describe`, `.meta`): zod finds those by the schema object's identity.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable, as a proxy must for what its (empty) target does not hold.
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(schema(), key);
      return d && { ...d, configurable: true };
    },
    defineProperty: (_, key, d) => Reflect.defineProperty(schema(), key, d),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
