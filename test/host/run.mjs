#!/usr/bin/env node
// Runs the host suites (test/host/suite/*.test.ts, built to out/test/host) inside a real VS Code
// extension host: an isolated code-server instance, opened by headless Chromium with the
// extension under development and the mocha entry passed in the workbench URL.
// Four profiles, each its own instance: `trusted` (most suites), `untrusted` (workspace trust on
// and never granted, for *.untrusted.test.ts), `multiroot` (a window of two folders, for
// *.multiroot.test.ts) and `reload` (a window reloaded mid-suite, for *.reload.test.ts).
import { format } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, repoRoot, removeRunDir } from '../../scripts/code-server/instance.mjs';
import { launchBrowser } from '../../scripts/code-server/browser.mjs';

// Workbench chatter forwarded with the suite's output; none of it is about the tests.
const WORKBENCH_NOISE =
  /^(Ignoring fetching additional builtin extensions|Creating a socket|Resolving connection token|Resolved connection token|\[Service Worker\]|ChatSessionStore:|Updating additional builtin extensions cache|Creation of workbench contribution|Started local extension host|Extension host \(|Started initializing default profile extensions|Completed initializing default profile extensions)/;
const TIMEOUT_MS = Number(process.env.LOGBOOK_HOST_TIMEOUT_MS ?? 15 * 60_000);
const PROFILES = [
  { name: 'trusted', trust: false },
  { name: 'untrusted', trust: true },
  // A multi-root window (the workspace folder and a second one), for *.multiroot.test.ts.
  { name: 'multiroot', trust: false, secondFolder: true },
  // A window reloaded mid-suite, for *.reload.test.ts: the suite runs again in the new extension
  // host and finds what it left (a file of its own says which half it is in). Its worktree tasks
  // live where the sandbox can reach them, named in the window's environment (it outlives a reload).
  {
    name: 'reload',
    trust: false,
    env: () => ({ LOGBOOK_WORKTREES_DIR: mkdtempSync(join(repoRoot, 'test-results', 'reload-tasks-')) }),
  },
];

let active = { server: undefined, browser: undefined };
async function cleanup() {
  await active.browser?.close();
  await active.server?.stop();
  if (active.server && !process.env.LOGBOOK_KEEP_RUN) removeRunDir(active.server.runDir);
  active = { server: undefined, browser: undefined };
}
process.on('SIGINT', () => cleanup().finally(() => process.exit(130)));
process.on('SIGTERM', () => cleanup().finally(() => process.exit(143)));

/** Runs one profile; resolves to its counts. */
async function runProfile(profile) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let exitCode = 1;
  console.log(`\n--- host profile: ${profile.name} ---`);
  if (profile.env) mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
  const profileEnv = profile.env?.() ?? {};
  try {
    active.server = await startCodeServer({
      trust: profile.trust,
      secondFolder: profile.secondFolder ?? false,
      // A setting under its old name (logbook.llm.*, now logbook.model.*), at its default value so
      // no suite depends on it: activation moves it to the new key (renamed-settings.test.ts).
      settings: { 'logbook.llm.maxReplyBytes': 4194304 },
      // Test extensions beside Logbook: a language-model tool (editor-tools suite) and a chat
      // model (editor-model suite).
      installExtensions: [
        join(repoRoot, 'test', 'host', 'fixtures', 'lm-tool-extension'),
        join(repoRoot, 'test', 'support', 'editor-model-extension'),
      ],
      // A key in the window's environment, as when VS Code is started from a shell that exports
      // one: the agent's terminal must not see it (terminal-secrets.test.ts).
      env: {
        LOGBOOK_TEST_MODE: '1',
        LOGBOOK_HOST_PROFILE: profile.name,
        OPENAI_API_KEY: 'sk-host-window-env-1a2b3c4d-KEEP-OUT',
        ...profileEnv,
      },
    });
    active.browser = await launchBrowser();
    const page = await active.browser.context.newPage();
    const done = new Promise((resolve) => {
      page.exposeFunction('codeAutomationExit', (code) => resolve(code));
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...args);
      if (WORKBENCH_NOISE.test(line)) return;
      const m = /^(\d+) passed, (\d+) failed, (\d+) skipped$/.exec(line.trim());
      if (m) {
        passed = Number(m[1]);
        failed = Number(m[2]);
        skipped = Number(m[3]);
      }
      (type === 'error' ? process.stderr : process.stdout).write(line + '\n');
    });
    const payload = [
      ['extensionDevelopmentPath', active.server.remoteUri(repoRoot)],
      // The test extension contributing a chat model (editor-model.test.ts) needs the
      // `chatProvider` proposed API: an empty list here allows proposed APIs to every extension.
      ['enableProposedApi', ''],
      ['extensionTestsPath', active.server.remoteUri(join(repoRoot, 'out', 'test', 'host', 'index.js'))],
      ['skipWelcome', 'true'],
    ];
    await page.goto(active.server.url(payload));
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), TIMEOUT_MS).unref());
    const result = await Promise.race([done, timeout]);
    if (result === 'timeout') {
      console.error(`host tests (${profile.name}) did not finish within ${TIMEOUT_MS / 1000} s`);
      mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
      await page
        .screenshot({ path: join(repoRoot, 'test-results', `host-timeout-${profile.name}.png`) })
        .catch(() => {});
      failed += 1;
    } else {
      exitCode = Number(result);
    }
  } catch (err) {
    console.error(`host test run (${profile.name}) failed:`, err);
    failed += 1;
  } finally {
    await cleanup();
    if (profileEnv.LOGBOOK_WORKTREES_DIR)
      rmSync(profileEnv.LOGBOOK_WORKTREES_DIR, { recursive: true, force: true });
  }
  if (exitCode !== 0 && failed === 0) failed = 1; // a non-zero exit must never read as green
  return { passed, failed, skipped };
}

const only = process.env.LOGBOOK_HOST_PROFILE;
let passed = 0;
let failed = 0;
let skipped = 0;
for (const profile of PROFILES.filter((p) => !only || p.name === only)) {
  const r = await runProfile(profile);
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
}
if (process.env.LOGBOOK_TEST_STATS) {
  writeFileSync(process.env.LOGBOOK_TEST_STATS, JSON.stringify({ passed, failed, skipped }));
}
console.log(`host: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
