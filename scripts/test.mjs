#!/usr/bin/env node
// Runs the test suites (unit, host, e2e; all by default), then prints one closing line that sums
// them: "N passed, N failed". Exits non-zero if any suite failed or could not run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

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
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const order = wanted.length ? ['build', ...wanted] : ['build', 'unit', 'webview', 'host', 'e2e'];
const statsDir = mkdtempSync(join(tmpdir(), 'logbook-stats-'));
let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;

for (const name of order) {
  const suite = suites[name];
  if (!suite) {
    console.error(`unknown suite "${name}" (choose from ${Object.keys(suites).join(', ')})`);
    process.exit(2);
  }
  const statsFile = join(statsDir, `${name}.json`);
  console.log(`\n=== ${name} ===`);
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
console.log(`\n${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
