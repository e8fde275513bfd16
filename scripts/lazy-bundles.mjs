// Stacks the extension and the CLI load on first use. Each is built as its own CommonJS bundle in
// <outdir>/lazy/, and a dynamic `import()` of its entry from a main bundle (dist/extension.js,
// dist/cli.js) becomes a `require` of that file when the import runs: a window or a command that
// never uses the stack never reads or compiles its code. Only dynamic imports are rewritten, so a
// static import of a lazy entry puts the stack back into the main bundle, which
// test/unit/packaging/lazy-bundles.test.ts refuses. A lazy bundle keeps its own copy of what it
// imports but zod (below): what crosses the boundary is plain data and the entry's own classes,
// never a class of Logbook's that either side checks with `instanceof`.
import { join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');

/** name: the bundle's file (lazy/<name>.js); entry: the module that loads the stack. */
export const LAZY_BUNDLES = [
  // linkedom, @mozilla/readability and turndown: a fetched HTML page as Markdown.
  { name: 'web-page', entry: 'src/host/node/web/page-markdown.ts' },
  // The MCP SDK (and its ajv and zod v3): a running MCP server.
  { name: 'mcp', entry: 'src/host/node/mcp/mcp-connection.ts' },
  // The openai client: a call to a model.
  { name: 'openai', entry: 'src/core/llm/openai-sdk.ts' },
];

const byEntry = new Map(LAZY_BUNDLES.map((b) => [resolve(root, b.entry).replace(/\.ts$/, ''), b.name]));

// zod ('zod' for Logbook, 'zod/v4' for the MCP SDK: the same module) is used by the main bundles
// and the lazy ones alike, so it is a bundle of its own that each requires, not a copy in each.
const SHARED = /^zod(\/v4)?$/;
const SHARED_ENTRY = 'src/shared-zod.ts';

/** Requires of the shared bundle, from a bundle in `dir` ('./lazy/' or './'). */
function sharedFrom(dir) {
  return (build) => build.onResolve({ filter: SHARED }, () => ({ path: `${dir}zod.js`, external: true }));
}

/**
 * For the main bundles: `import('…/page-markdown')` and the like become
 * `require('./lazy/web-page.js')`, and zod a require of './lazy/zod.js'.
 */
export const lazyBundlesPlugin = {
  name: 'lazy-bundles',
  setup(build) {
    sharedFrom('./lazy/')(build);
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const name = byEntry.get(resolve(args.resolveDir, args.path).replace(/\.(ts|js)$/, ''));
      return name ? { path: `./lazy/${name}.js`, external: true } : undefined;
    });
  },
};

/** esbuild options of the lazy bundles and the shared one, next to main bundles written to `outdir`. */
export function lazyBundleBuilds(outdir, options = {}) {
  const node = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: join(outdir, 'lazy'),
  };
  return [
    {
      ...options,
      ...node,
      entryPoints: Object.fromEntries(LAZY_BUNDLES.map((b) => [b.name, join(root, b.entry)])),
      plugins: [...(options.plugins ?? []), { name: 'shared-bundles', setup: sharedFrom('./') }],
    },
    { ...options, ...node, entryPoints: { zod: join(root, SHARED_ENTRY) } },
  ];
}
