#!/usr/bin/env node
// npm run bench [-- --json FILE]: runs the event-log benchmark (bench/log-bench.ts) under tsx.
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
process.exit(res.status ?? 1);
