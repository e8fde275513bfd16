#!/usr/bin/env node
// The host suites in desktop VS Code (Electron), for machines that can download VS Code.
// The offline harness (code-server) is what `npm test` uses; this runs the same bundled suites.
import { runTests } from '@vscode/test-electron';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { stdio: 'inherit' });
const ws = mkdtempSync(join(tmpdir(), 'logbook-electron-ws-'));
cpSync(join(root, 'test', 'fixtures', 'workspace'), ws, { recursive: true });
try {
  await runTests({
    version: process.env.VSCODE_VERSION ?? '1.100.3',
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'test', 'host', 'index.js'),
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { LOGBOOK_TEST_MODE: '1' },
  });
} catch (err) {
  console.error('electron host tests failed:', err);
  process.exit(1);
}
