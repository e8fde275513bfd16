// The sandbox's cost, as same-run ratios (the machine is shared and its speed drifts, so only
// numbers measured side by side, interleaved, are compared):
//   S1  starting the agent's shell and running `true` in it (what the first command of a
//       conversation waits for): sandboxed ≤ 1.3× unsandboxed.
//   S2  a session of 200 commands in one shell: sandboxed ≤ 1.1× unsandboxed wall time.
//   S3  (informational) bare `true` through bwrap against a plain spawn: the namespaces' own price.
//   S4  (informational) the same with the Unix socket filter's nested bwrap (unix-socket-filter.ts):
//       what the filter adds to each shell start; commands in the shell inherit it at no cost (S2).
// Writes bench/SANDBOX-RESULTS.md; `--trial` runs fewer rounds and writes nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodeTerminalPort } from '../src/host/node/ports/node-terminal-port';
import { CommandSandbox, sandboxAvailability } from '../src/host/node/sandbox';
import { bwrapArguments } from '../src/host/node/sandbox/bwrap-arguments';
import { filteredLaunch, hostIds, outerIds } from '../src/host/node/sandbox/unix-socket-filter';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';

const TRIAL = process.argv.includes('--trial');
const ROUNDS = TRIAL ? 5 : 40;
const SESSION_COMMANDS = 200;
const SESSION_ROUNDS = TRIAL ? 1 : 5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = os.loadavg();
  const found = sandboxAvailability();
  if (!found.available) throw new Error(`no sandbox can start here: ${found.problem}`);
  const ws = mkdtempSync(path.join(os.tmpdir(), 'logbook-sandbox-bench-'));
  for (let i = 0; i < 50; i++) writeFileSync(path.join(ws, `f${i}.txt`), `line ${i}\n`.repeat(20));
  const sandbox = new CommandSandbox({ setting: 'required', allowedHosts: () => [] });
  const port = (sandboxed: boolean) =>
    new NodeTerminalPort({
      cwd: ws,
      ...(sandboxed ? { sandbox: { sandbox, workspaces: [ws], readOnly: () => false } } : {}),
    });

  // S1: interleaved, so drift hits both sides alike. The proxy starts once per conversation: warm it.
  const warm = port(true);
  await warm.run('true', { timeoutMs: 30_000 });
  warm.dispose();
  const start: Record<'plain' | 'sandboxed', number[]> = { plain: [], sandboxed: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of i % 2 ? (['sandboxed', 'plain'] as const) : (['plain', 'sandboxed'] as const)) {
      const t = port(kind === 'sandboxed');
      const t0 = performance.now();
      await t.run('true', { timeoutMs: 30_000 });
      start[kind].push(performance.now() - t0);
      t.dispose();
    }
  }

  // S2: one shell each, 200 ordinary commands.
  const commands = Array.from(
    { length: SESSION_COMMANDS },
    (_, i) =>
      [
        `cat f${i % 50}.txt > /dev/null`,
        'ls | wc -l',
        `grep -c line f${i % 50}.txt`,
        'echo $((i+1)) > /dev/null',
      ][i % 4]!,
  );
  const session: Record<'plain' | 'sandboxed', number[]> = { plain: [], sandboxed: [] };
  for (let r = 0; r < SESSION_ROUNDS; r++) {
    for (const kind of r % 2 ? (['sandboxed', 'plain'] as const) : (['plain', 'sandboxed'] as const)) {
      const t = port(kind === 'sandboxed');
      await t.run('true', { timeoutMs: 30_000 });
      const t0 = performance.now();
      for (const c of commands) await t.run(c, { timeoutMs: 30_000 });
      session[kind].push(performance.now() - t0);
      t.dispose();
    }
  }

  // S3: the bare namespaces, without the agent's shell or the network bridge.
  const bare = bwrapArguments(
    {
      workspaces: [ws],
      readOnlyWorkspace: false,
      writable: [],
      heldInWorkspace: [],
      selfBound: [],
      hiddenHomes: [],
      homeReadable: [],
      hidden: [],
      env: { PATH: '/usr/bin:/bin' },
      cwd: ws,
    },
    { kind: () => 'dir', newSession: true },
  );
  // S4: as every launch runs: the outer sandbox maps ids for the nested bwrap that loads the filter.
  const ids = outerIds(hostIds());
  const outer = ['--uid', String(ids.uid), '--gid', String(ids.gid), '--as-pid-1', ...bare];
  const nested = filteredLaunch(found.bwrap, hostIds(), ['true']);
  // Its baseline: the same bash line with no filter (every launch has that bash, for the bridge).
  const unfiltered = ['/bin/bash', '--norc', '--noprofile', '-c', 'exec "$@"', '_', 'true'];
  const raw: Record<'plain' | 'sandboxed' | 'unfiltered' | 'filtered', number[]> = {
    plain: [],
    sandboxed: [],
    unfiltered: [],
    filtered: [],
  };
  for (let i = 0; i < ROUNDS; i++) {
    let t0 = performance.now();
    spawnSync('true');
    raw.plain.push(performance.now() - t0);
    t0 = performance.now();
    spawnSync(found.bwrap, [...bare, '--', 'true']);
    raw.sandboxed.push(performance.now() - t0);
    t0 = performance.now();
    spawnSync(found.bwrap, [...bare, '--', ...unfiltered]);
    raw.unfiltered.push(performance.now() - t0);
    t0 = performance.now();
    const f = spawnSync(found.bwrap, [...outer, '--', ...nested]);
    raw.filtered.push(performance.now() - t0);
    if (f.status !== 0) throw new Error(`the filtered launch failed: ${String(f.stderr)}`);
  }
  await sandbox.dispose();
  rmSync(ws, { recursive: true, force: true });

  const s1 = median(start.sandboxed) / median(start.plain);
  const s2 = median(session.sandboxed) / median(session.plain);
  const s3 = median(raw.sandboxed) / median(raw.plain);
  const rows: Row[] = [
    {
      workload: 'S1 shell start + `true`',
      metric: 'sandboxed / unsandboxed (median)',
      value: `${s1.toFixed(2)}× (${ms(median(start.sandboxed))} / ${ms(median(start.plain))})`,
      target: '≤ 1.30×',
      pass: s1 <= 1.3,
    },
    {
      workload: `S2 session of ${SESSION_COMMANDS} commands`,
      metric: 'sandboxed / unsandboxed wall time (median)',
      value: `${s2.toFixed(2)}× (${ms(median(session.sandboxed))} / ${ms(median(session.plain))})`,
      target: '≤ 1.10×',
      pass: s2 <= 1.1,
    },
    {
      workload: 'S3 bare `true` through bwrap',
      metric: 'bwrap / plain spawn (median)',
      value: `${s3.toFixed(2)}× (${ms(median(raw.sandboxed))} / ${ms(median(raw.plain))})`,
      target: 'informational',
      pass: null,
    },
    {
      workload: 'S4 `true` under the Unix socket filter',
      metric: 'nested bwrap with the filter / without (median), added per shell start',
      value: `${(median(raw.filtered) / median(raw.unfiltered)).toFixed(2)}× (+${ms(median(raw.filtered) - median(raw.unfiltered))})`,
      target: 'informational',
      pass: null,
    },
  ];
  const table = resultsTable(rows);
  console.log(table);
  const doc = [
    '# Sandbox benchmark',
    '',
    'Generated by `node --import tsx bench/sandbox-bench.ts` (part of `npm run bench`). Every ratio',
    'compares numbers measured in the same run, interleaved; do not edit by hand, rerun the bench.',
    '',
    ...machineLines({ loadAtStart, wallMs: performance.now() - started, extra: [found.version] }),
    '',
    '## Results',
    '',
    table,
    '',
  ].join('\n');
  const mdFile = path.join(__dirname, 'SANDBOX-RESULTS.md');
  if (!TRIAL) writeFileSync(mdFile, await prettierMarkdown(mdFile, doc));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
