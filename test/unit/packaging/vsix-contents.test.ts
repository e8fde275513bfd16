import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
/** Folders of the working tree that are not part of the source (installed, built or produced by runs). */
const NOT_SOURCE = new Set(['node_modules', '.git', '.vscode-test', 'dist', 'out', 'test-results']);

// The package is built the way `npm run package` builds it (scripts/package.mjs: production bundles,
// the same vsce arguments), from a copy of the working tree: the test's bundles never replace the
// development ones in dist/, and every source and test file is there for .vscodeignore to leave out.
describe('packaging', () => {
  let stage: string;
  let files: string[];
  let vsix: string;
  let packageOutput: string;
  let vsceArguments: (out: string, publicUrl?: string) => string[];
  let lazyBundles: readonly { name: string }[];

  before(async function () {
    this.timeout(180_000);
    ({ vsceArguments } = await import('../../../scripts/package.mjs'));
    ({ LAZY_BUNDLES: lazyBundles } = await import('../../../scripts/lazy-bundles.mjs'));
    stage = mkdtempSync(join(tmpdir(), 'logbook-vsix-'));
    cpSync(root, stage, {
      recursive: true,
      filter: (src) => !NOT_SOURCE.has(basename(src)),
    });
    execFileSync(
      process.execPath,
      [join(root, 'esbuild.mjs'), '--production', '--outdir', join(stage, 'dist')],
      {
        cwd: root,
        stdio: 'pipe',
      },
    );
    files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], {
      cwd: stage,
      encoding: 'utf8',
    })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .sort();
    vsix = join(stage, 'logbook.vsix');
    packageOutput = execFileSync(process.execPath, [vsce, ...vsceArguments(vsix)], {
      cwd: stage,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  });

  after(function () {
    // A copy of the tree with its node_modules: removing it takes seconds on a loaded machine.
    this.timeout(120_000);
    if (stage) rmSync(stage, { recursive: true, force: true });
  });

  it('ships only what runs in the .vsix, nothing test-only (vsce ls)', () => {
    const allowed = [
      /^package\.json$/,
      /^package\.nls(\.[a-z-]+)?\.json$/,
      /^l10n\/bundle\.l10n\.[a-z-]+\.json$/,
      /^README\.md$/,
      /^CHANGELOG\.md$/,
      /^docs\/[\w-]+\.md$/,
      /^LICENSE$/,
      /^media\/[\w/.-]+\.(png|svg)$/,
      /^dist\/(extension|webview)\.(js|css)$/,
      /^dist\/lazy\/[\w-]+\.js$/,
      /^dist\/codicon\.(css|ttf)$/,
    ];
    const unexpected = files.filter((f) => !allowed.some((re) => re.test(f)));
    assert.deepEqual(unexpected, [], `unexpected files in the package: ${unexpected.join(', ')}`);
    const testOnly = files.filter((f) =>
      /^(test|src|scripts|bench|assets|webview-ui)\/|\.map$|\.ts$/.test(f),
    );
    assert.deepEqual(testOnly, []);
    for (const needed of [
      'dist/extension.js',
      // The stacks the extension loads on first use (scripts/lazy-bundles.mjs).
      ...lazyBundles.map((b) => `dist/lazy/${b.name}.js`),
      'dist/webview.js',
      'CHANGELOG.md',
      'LICENSE',
      // The manifest's English and translated texts, and the messages' translations.
      'package.nls.json',
      'package.nls.zh-cn.json',
      'l10n/bundle.l10n.zh-cn.json',
    ]) {
      assert.ok(files.includes(needed), `${needed} is in the package`);
    }
  });

  it('ships the icon and every image the manifest and README name', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      icon: string;
      contributes: { walkthroughs?: { steps: { media: { image?: string | Record<string, string> } }[] }[] };
    };
    const named = [manifest.icon];
    for (const w of manifest.contributes.walkthroughs ?? []) {
      for (const step of w.steps) {
        const image = step.media.image;
        if (typeof image === 'string') named.push(image);
        else if (image) named.push(...Object.values(image));
      }
    }
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    named.push(...[...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!));
    const missing = named.filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], `named but not shipped: ${missing.join(', ')}`);
    assert.match(manifest.icon, /\.png$/, 'the Marketplace takes no SVG icon');
  });

  // 1.5 MB: each stack loaded on first use (dist/lazy/: web pages, MCP, the model client, ACP
  // agents, the OpenHands formats) and each CLI command (dist/cli/, about 25) carries its own copy
  // of the core it needs, the price of an activation that parses under 1 MB and of a command that
  // parses only itself (1.32 MB with 25 commands); the budget still catches a stray asset or a
  // source map (extension.js's alone is over 3 MB).
  it('packages without a warning into a .vsix of at most 1.5 MB', () => {
    assert.doesNotMatch(packageOutput, /WARNING/);
    const bytes = statSync(vsix).size;
    assert.ok(bytes <= 1.5 * 1024 * 1024, `the .vsix is ${bytes} bytes`);
  });

  it("passes vsce's Marketplace rules for README images once given a public address", function () {
    this.timeout(60_000);
    // With an address vsce rewrites relative links and refuses images that are not https or SVG.
    const out = join(stage, 'marketplace.vsix');
    execFileSync(process.execPath, [vsce, ...vsceArguments(out, 'https://example.org/logbook/')], {
      cwd: stage,
      stdio: 'pipe',
    });
    assert.ok(statSync(out).size > 0);
    assert.throws(() => vsceArguments(out, 'http://example.org/logbook/'), /https/);
  });
});
