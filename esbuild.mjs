#!/usr/bin/env node
// Builds every bundle: the extension (Node, CommonJS, 'vscode' external), the webview (browser),
// the `logbook` CLI (Node), and the host test suites. `--watch` rebuilds on change,
// `--production` minifies and drops source maps (used by `npm run package`); `--outdir DIR` writes the
// bundles elsewhere than dist/ (the packaging test builds a package without touching dist/).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt >= 0 ? process.argv[outdirAt + 1] : 'dist';
if (!outdir) throw new Error('--outdir needs a folder');

// zod's namespace object (`z`) keeps every member alive, so its 48 error-message languages all
// landed in the bundles (~250 KB minified). Logbook's messages from zod are read in English only.
const zodEnglishOnly = {
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

const common = {
  bundle: true,
  plugins: [zodEnglishOnly],
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const hostTests = readdirSync('test/host/suite')
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test/host/suite', f));

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/host/vscode/extension.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { cli: 'src/host/node/cli.ts' },
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { webview: 'webview-ui/src/main.tsx' },
    outdir,
    // Minified in every build (its source map says where things are): the page parses it on each
    // show, tests and benches measure the bundle that ships, and its size has a budget.
    minify: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
    jsxImportSource: 'preact',
  },
];
if (!production) {
  builds.push({
    ...common,
    entryPoints: ['test/host/index.ts', ...hostTests],
    outbase: 'test/host',
    outdir: 'out/test/host',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  });
}

function copyAssets() {
  mkdirSync(outdir, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf'])
    copyFileSync(join('node_modules/@vscode/codicons/dist', f), join(outdir, f));
}

copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching for changes');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
