#!/usr/bin/env node
// `npm run package`: the production bundles, then `vsce package` into dist/logbook-agent.vsix.
//
// README and walkthrough images are PNG files shipped in the package. VS Code shows an installed
// package's README with its relative links resolved inside the package, so a local .vsix needs no
// address. The Marketplace shows the README from its own site, where a relative link resolves to
// nothing: vsce must rewrite them to absolute https addresses, which it guesses only for a
// `repository` on GitHub or GitLab. So a build for the Marketplace names the public address of the
// repository's files (where media/ and docs/ can be fetched) in LOGBOOK_PUBLIC_URL, e.g.
//   LOGBOOK_PUBLIC_URL=https://raw.example.org/logbook/main/ npm run package
// and vsce then rewrites every relative link and refuses images that are not https or are SVG.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const out = process.argv[2] ?? join('dist', 'logbook-agent.vsix');

/** vsce's arguments for a package of the current tree; `publicUrl` for the Marketplace. */
export function vsceArguments(outFile, publicUrl) {
  const args = ['package', '--no-dependencies', '--allow-missing-repository', '-o', outFile];
  if (!publicUrl) return [...args, '--no-rewrite-relative-links'];
  if (!/^https:\/\/[^/]+\/.*\/$/.test(publicUrl)) {
    throw new Error(`LOGBOOK_PUBLIC_URL must be an https address ending in "/", not "${publicUrl}"`);
  }
  return [...args, '--baseContentUrl', publicUrl, '--baseImagesUrl', publicUrl];
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [vsce, ...vsceArguments(out, process.env.LOGBOOK_PUBLIC_URL)], {
    cwd: root,
    stdio: 'inherit',
  });
}
