#!/usr/bin/env node
// Runs the test suites (unit, webview, host, e2e, remote; all by default), then prints one closing
// line that sums them: "N passed, N failed". Exits non-zero if any suite failed or could not run.
// The remote suite runs against the real OpenHands agent-server when its source is beside the
// clone (scripts/setup-agent-server.mjs prepares it first); without it, it says it was skipped and why.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentServerSource } from './setup-agent-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const reporter = join(root, 'test', 'support', 'stats-reporter.cjs');

/**
 * A suite of TypeScript mocha tests run under tsx, reporting its counts through the stats reporter.
 * A stray `.only` fails the suite instead of quietly running one test.
 */
function mochaSuite(glob, timeoutMs) {
  return {
    cmd: [
      node,
      mocha,
      '--import=tsx',
      '--forbid-only',
      '--reporter',
      reporter,
      '--timeout',
      String(timeoutMs),
      glob,
    ],
  };
}

const suites = {
  build: { cmd: [node, join(root, 'esbuild.mjs')], counted: false },
  unit: mochaSuite('test/unit/**/*.test.ts', 20_000),
  host: { cmd: [node, join(root, 'test', 'host', 'run.mjs')] },
  webview: mochaSuite('test/webview/*.test.ts', 120_000),
  e2e: mochaSuite('test/e2e/**/*.test.ts', 180_000),
  remote: {
    ...mochaSuite('test/remote/**/*.test.ts', 180_000),
    // The server's Python and packages, unpacked beside the project once (idempotent).
    prepare: [node, join(root, 'scripts', 'setup-agent-server.mjs')],
    skipWhy: () => {
      try {
        agentServerSource();
        return null;
      } catch (err) {
        return err.message;
      }
    },
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const order = wanted.length ? ['build', ...wanted] : ['build', 'unit', 'webview', 'host', 'e2e', 'remote'];
const statsDir = mkdtempSync(join(tmpdir(), 'logbook-stats-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
/** Suites skipped whole, said again beside the closing line so a long log cannot hide them. */
const notRun = [];

for (const name of order) {
  const suite = suites[name];
  if (!suite) {
    console.error(`unknown suite "${name}" (choose from ${Object.keys(suites).join(', ')})`);
    process.exit(2);
  }
  const statsFile = join(statsDir, `${name}.json`);
  console.log(`\n=== ${name} ===`);
  const skipWhy = suite.skipWhy?.();
  if (skipWhy) {
    console.log(`${name}: SKIPPED, not run: ${skipWhy}`);
    notRun.push(`${name} suite SKIPPED: ${skipWhy}`);
    continue;
  }
  if (suite.prepare) {
    const prep = spawnSync(suite.prepare[0], suite.prepare.slice(1), { cwd: root, stdio: 'inherit' });
    if (prep.status !== 0) {
      // Counted as one failure: a suite that could not start never reads as passed.
      console.error(`${name}: preparing the suite failed (exit ${prep.status ?? prep.signal}); not run`);
      failed += 1;
      broken = true;
      continue;
    }
  }
  const res = spawnSync(suite.cmd[0], suite.cmd.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LOGBOOK_TEST_STATS: statsFile },
  });
  if (suite.counted === false) {
    if (res.status !== 0) {
      console.error(`${name} failed (exit ${res.status ?? res.signal})`);
      broken = true;
      break;
    }
    continue;
  }
  if (existsSync(statsFile)) {
    const s = JSON.parse(readFileSync(statsFile, 'utf8'));
    passed += s.passed;
    failed += s.failed;
    skipped += s.skipped;
    console.log(`${name}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  } else {
    // A suite that could not even report is counted as one failure, so the closing line never hides it.
    console.error(`${name}: the suite ended without reporting its counts (exit ${res.status ?? res.signal})`);
    failed += 1;
    broken = true;
  }
  if (res.status !== 0) broken = true;
}

rmSync(statsDir, { recursive: true, force: true });
// Skips are said on their own line: the closing line stays exactly "N passed, N failed".
for (const line of notRun) console.log(`\n${line}`);
console.log(`\n${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
