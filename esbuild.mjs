#!/usr/bin/env node
// Builds every bundle: the extension (Node, CommonJS, 'vscode' external), the webview (browser),
// the `logbook` CLI (Node), and the host test suites. `--watch` rebuilds on change,
// `--production` minifies and drops source maps (used by `npm run package`); `--outdir DIR` writes the
// bundles elsewhere than dist/ (the packaging test builds a package without touching dist/).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { webviewOptions, zodEnglishOnly } from './scripts/webview-bundle.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt >= 0 ? process.argv[outdirAt + 1] : 'dist';
if (!outdir) throw new Error('--outdir needs a folder');

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
