#!/usr/bin/env node
// Runs the test suites (unit, webview, host, e2e, remote; all by default), then prints one closing
// line that sums them: "N passed, N failed". Exits non-zero if any suite failed or could not run.
// The remote suite, and the host suite's remote conversation tests, run against the real OpenHands
// agent-server when its source is beside the clone: scripts/setup-agent-server.mjs prepares it once,
// before the first of them (scripts/test-plan.mjs). Without the source, the remote suite says it
// was skipped and why (the host tests that need the server say so each).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentServerSource } from './setup-agent-server.mjs';
import { testPlan } from './test-plan.mjs';

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
  remote: mochaSuite('test/remote/**/*.test.ts', 180_000),
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

/** Why the agent-server's source is not there, or undefined. */
function agentServerMissing() {
  try {
    agentServerSource();
    return undefined;
  } catch (err) {
    return err.message;
  }
}

for (const name of order) {
  if (!suites[name]) {
    console.error(`unknown suite "${name}" (choose from ${Object.keys(suites).join(', ')})`);
    process.exit(2);
  }
}

/** Why the agent-server could not be prepared (counted once as a failure), or undefined. */
let preparationFailed;
for (const step of testPlan(order, agentServerMissing())) {
  if (step.prepare) {
    // The server's Python and packages, unpacked beside the project once (idempotent).
    console.log('\n=== agent-server (preparing) ===');
    const prep = spawnSync(node, [join(root, 'scripts', 'setup-agent-server.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (prep.status !== 0) {
      // Counted as one failure: the tests that need the server never read as passed.
      preparationFailed = `preparing the agent-server failed (exit ${prep.status ?? prep.signal})`;
      console.error(preparationFailed);
      failed += 1;
      broken = true;
    }
    continue;
  }
  const name = step.suite;
  const suite = suites[name];
  const statsFile = join(statsDir, `${name}.json`);
  console.log(`\n=== ${name} ===`);
  if (step.skip) {
    console.log(`${name}: SKIPPED, not run: ${step.skip}`);
    notRun.push(`${name} suite SKIPPED: ${step.skip}`);
    continue;
  }
  if (step.needsAgentServer && preparationFailed) {
    console.error(`${name}: not run: ${preparationFailed} (counted above)`);
    continue;
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
