#!/usr/bin/env node
// npm run bench [-- --json FILE]: runs the event-log benchmark (bench/log-bench.ts), the state
// benchmark (bench/state-bench.ts) and the open benchmark (bench/open-bench.ts: `logbook show` and
// VS Code opening a huge imported conversation) under tsx. The chat panel's is `npm run bench:webview`.
// Each prints a results table and writes its file in bench/ (RESULTS.md, STATE-RESULTS.md,
// SANDBOX-RESULTS.md, CHECKPOINT-RESULTS.md, CONFIRMATION-COUNT.md, CONTINUE-RESULTS.md, ACP-RESULTS.md,
// ACTIVATION-RESULTS.md, HOOKS-RESULTS.md, WORKTREE-RESULTS.md, PARALLEL-RESULTS.md, OPEN-RESULTS.md).
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
/** The benchmark's own --json file: FILE.json becomes FILE.<kind>.json. */
const jsonFor = (kind) =>
  process.argv
    .slice(2)
    .map((a, i, all) => (all[i - 1] === '--json' ? a.replace(/(\.json)?$/, `.${kind}.json`) : a));
// The sandbox benchmark (S1 shell start, S2 a 200-command session: sandboxed against unsandboxed).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'sandbox-bench.ts'), ...jsonFor('sandbox')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The workspace checkpoint benchmark (C1-C4: a 5,000-file / 200 MB workspace).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'checkpoint-bench.ts'), ...jsonFor('checkpoints')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The confirmation count: questions per level on the corpus's everyday tasks, hostile escapes, restores.
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'bench', 'confirmation-count.ts'),
      ...(process.argv.includes('--trial') ? ['--trial'] : []),
    ],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The continue benchmark (C1 `logbook run` on a 100k imported conversation, C2 its first condensation).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'continue-bench.ts'), ...jsonFor('continue')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The ACP benchmark (P1 one turn over the Agent Client Protocol against the same `logbook run` turn).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'acp-bench.ts'), ...jsonFor('acp')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The activation benchmark (A1 code parsed at activation, A2 activation against the one-bundle build).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'activation-bench.ts'), ...jsonFor('activation')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The hooks benchmark (H1 a run's per-action cost with no-op hooks against none).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'hooks-bench.ts'), ...jsonFor('hooks')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The worktree task benchmark (W1 a task's worktree against `git worktree add` of a 5,000-file repository).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'worktree-bench.ts'), ...jsonFor('worktree')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The parallel tasks benchmark (T1 four worktree tasks at once against one alone, T2 memory per task).
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'parallel-bench.ts'), ...jsonFor('parallel')],
    { cwd: root, stdio: 'inherit' },
  ).status;
// The open benchmark (O1 `logbook show`, O2 VS Code) last: it builds the extension and starts code-server.
if (res.status === 0)
  res.status = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench', 'open-bench.ts'), ...jsonFor('open')],
    { cwd: root, stdio: 'inherit' },
  ).status;
process.exit(res.status ?? 1);
