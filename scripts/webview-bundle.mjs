// How the chat webview is bundled, shared by esbuild.mjs, the webview benchmark and the test that
// keeps the bundle within its size budget, so all three measure the bundle that ships.
import { join, resolve, sep } from 'node:path';

/** dist/webview.js may not grow past this (bytes): the page parses it each time the chat is shown. */
export const WEBVIEW_BUDGET_BYTES = 280 * 1024;

// zod's namespace object (`z`) keeps every member alive, so its 48 error-message languages all
// landed in the bundles (~250 KB minified). Logbook's messages from zod are read in English only.
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}zod${sep}`)
        ? { path: join(args.resolveDir, '..', 'locales'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: args.path,
    }));
  },
};

// The extension builds its schemas on first use (core/schema/lazy-schema.ts) so activation stays
// cheap; the webview parses a message as soon as it loads, so it builds them at once and ships none
// of the deferral (webview-ui/src/eager-schema.ts).
const eagerSchemas = (root) => ({
  name: 'eager-schemas',
  setup(build) {
    build.onResolve({ filter: /\/core\/schema\/lazy-schema$/ }, () => ({
      path: resolve(root, 'webview-ui', 'src', 'eager-schema.ts'),
    }));
  },
});

/**
 * esbuild options for dist/webview.js (and its CSS) under `outdir`, from the repository at `root`.
 * @param {{ root?: string; outdir: string; sourcemap?: import('esbuild').BuildOptions['sourcemap'] }} where
 * @returns {import('esbuild').BuildOptions}
 */
export function webviewOptions({ root = '.', outdir, sourcemap = 'linked' }) {
  return {
    bundle: true,
    plugins: [zodEnglishOnly, eagerSchemas(root)],
    sourcemap,
    // Minified in every build (its source map says where things are): the page parses it on each
    // show, tests and benches measure the bundle that ships, and its size has a budget.
    minify: true,
    logLevel: 'warning',
    legalComments: 'none',
    entryPoints: { webview: join(root, 'webview-ui/src/main.tsx') },
    outdir,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
    jsxImportSource: 'preact',
  };
}
