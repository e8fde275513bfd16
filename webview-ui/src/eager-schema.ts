// The webview's stand-in for core/schema/lazy-schema.ts (scripts/webview-bundle.mjs swaps it in):
// the page builds its protocol schemas when it loads, as it parses a message at once anyway, so it
// needs neither the deferral nor the proxy's bytes in its size-budgeted bundle.
export function lazySchema<T extends object>(build: () => T): T {
  return build();
}
