#!/usr/bin/env node
// npm run bench [-- --json FILE]: runs the event-log benchmark (bench/log-bench.ts) and the state
// benchmark (bench/state-bench.ts) under tsx. The chat panel's is `npm run bench:webview`.
// It prints a results table and writes bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'bench', 'log-bench.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
// The state benchmark (W2 state open, W3 time travel, W4 prompt build) runs after the log one.
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'bench', 'state-bench.ts'),
      ...process.argv
        .slice(2)
        .map((a, i, all) => (all[i - 1] === '--json' ? a.replace(/(\.json)?$/, '.state.json') : a)),
    ],
    { cwd: root, stdio: 'inherit' },
  ).status;
process.exit(res.status ?? 1);
