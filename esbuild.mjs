#!/usr/bin/env node
// Builds every bundle: the extension (Node, CommonJS, 'vscode' external), the webview (browser),
// the `logbook` CLI (Node), what those two load on first use (dist/lazy/, dist/cli/: see
// scripts/lazy-bundles.mjs), and the host test suites. `--watch` rebuilds on change,
// `--production` minifies and drops source maps (used by `npm run package`); `--outdir DIR` writes
// the bundles elsewhere than dist/ (the packaging test builds a package without touching dist/).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  lazyBundleBuilds,
  mainBundlePlugins,
  NODE_PLUGINS,
  REQUIRE_ON_IMPORT,
} from './scripts/lazy-bundles.mjs';
import { webviewOptions } from './scripts/webview-bundle.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt >= 0 ? process.argv[outdirAt + 1] : 'dist';
// `--metafile`: also writes <outdir>/metafile.json, what each bundle is made of (the lazy-bundles test).
const metafile = process.argv.includes('--metafile');
// `--eager`: the extension and the CLI as one bundle each, every stack in it (no dist/lazy/, no
// dist/cli/): the layout before stacks loaded on first use, the baseline of the activation bench.
const eager = process.argv.includes('--eager');
if (!outdir) throw new Error('--outdir needs a folder');

const common = {
  bundle: true,
  plugins: NODE_PLUGINS,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's main file is a UMD wrapper whose requires esbuild cannot follow (it calls them
  // through a parameter): its ES module build is the same code, bundled whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // One bundle holds zod and the protocol's zod/mini schemas together, as the host suites do: with
  // zod's "sideEffects": false honoured, the call that runs zod/mini's modules was dropped.
  ...(eager ? { ignoreAnnotations: true } : {}),
};

// The eager build stays the layout before either change: the activation bench's baseline.
const mainPlugins = mainBundlePlugins(eager);

const hostTests = readdirSync('test/host/suite')
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test/host/suite', f));

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/host/vscode/extension.ts' },
    plugins: mainPlugins,
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    supported: REQUIRE_ON_IMPORT,
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { cli: 'src/host/node/cli.ts' },
    plugins: mainPlugins,
    outdir,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    supported: REQUIRE_ON_IMPORT,
    banner: { js: '#!/usr/bin/env node' },
  },
  // The stacks both load on first use (scripts/lazy-bundles.mjs), in dist/lazy/.
  ...(eager ? [] : lazyBundleBuilds(outdir, common)),
  webviewOptions({ outdir, sourcemap: common.sourcemap }),
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
    // The suites bundle the stacks the extension loads on first use, so zod's modules are wrapped to
    // run on first use too; with zod's "sideEffects": false honoured, esbuild dropped the call that
    // runs zod/mini's before the protocol's schemas use it. Tests gain nothing from that pruning.
    ignoreAnnotations: true,
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
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile })));
  if (metafile) {
    const outputs = Object.assign({}, ...results.map((r) => r.metafile.outputs));
    writeFileSync(join(outdir, 'metafile.json'), JSON.stringify({ outputs }));
  }
}
