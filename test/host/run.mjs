#!/usr/bin/env node
// Runs the host suites (test/host/suite/*.test.ts, built to out/test/host) inside a real VS Code
// extension host: an isolated code-server instance, opened by headless Chromium with the
// extension under development and the mocha entry passed in the workbench URL.
import { format } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, repoRoot, removeRunDir } from '../../scripts/code-server/instance.mjs';
import { launchBrowser } from '../../scripts/code-server/browser.mjs';

// Workbench chatter forwarded with the suite's output; none of it is about the tests.
const WORKBENCH_NOISE =
  /^(Ignoring fetching additional builtin extensions|Creating a socket|Resolving connection token|Resolved connection token|\[Service Worker\]|ChatSessionStore:|Updating additional builtin extensions cache|Creation of workbench contribution|Started local extension host|Extension host \(|Started initializing default profile extensions|Completed initializing default profile extensions)/;
const TIMEOUT_MS = Number(process.env.LOGBOOK_HOST_TIMEOUT_MS ?? 15 * 60_000);
let server;
let browser;
let passed = 0;
let failed = 0;
let exitCode = 1;

async function cleanup() {
  await browser?.close();
  await server?.stop();
  if (server && !process.env.LOGBOOK_KEEP_RUN) removeRunDir(server.runDir);
}
process.on('SIGINT', () => cleanup().finally(() => process.exit(130)));
process.on('SIGTERM', () => cleanup().finally(() => process.exit(143)));

try {
  server = await startCodeServer({ env: { LOGBOOK_TEST_MODE: '1' } });
  browser = await launchBrowser();
  const page = await browser.context.newPage();
  const done = new Promise((resolve) => {
    page.exposeFunction('codeAutomationExit', (code) => resolve(code));
  });
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = format(...args);
    if (WORKBENCH_NOISE.test(line)) return;
    const m = /^(\d+) passed, (\d+) failed$/.exec(line.trim());
    if (m) {
      passed = Number(m[1]);
      failed = Number(m[2]);
    }
    (type === 'error' ? process.stderr : process.stdout).write(line + '\n');
  });
  const payload = [
    ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
    ['extensionTestsPath', server.remoteUri(join(repoRoot, 'out', 'test', 'host', 'index.js'))],
    ['skipWelcome', 'true'],
  ];
  await page.goto(server.url(payload));
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), TIMEOUT_MS).unref());
  const result = await Promise.race([done, timeout]);
  if (result === 'timeout') {
    console.error(`host tests did not finish within ${TIMEOUT_MS / 1000} s`);
    await page.screenshot({ path: join(repoRoot, 'test-results', 'host-timeout.png') }).catch(() => {});
    failed += 1;
  } else {
    exitCode = Number(result);
  }
} catch (err) {
  console.error('host test run failed:', err);
  failed += 1;
} finally {
  await cleanup();
}
if (process.env.LOGBOOK_TEST_STATS) {
  writeFileSync(process.env.LOGBOOK_TEST_STATS, JSON.stringify({ passed, failed, skipped: 0 }));
}
console.log(`host: ${passed} passed, ${failed} failed`);
process.exit(exitCode === 0 && failed === 0 ? 0 : 1);
