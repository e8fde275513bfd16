// The activation benchmark: the extension as it ships (esbuild.mjs --production, the web page, MCP
// and openai stacks in dist/lazy/, loaded on first use) against the same sources built the way they
// were before (--eager: one bundle holding every stack), both built in this run.
//   A1 the code parsed at activation: the bundles extension.js requires when it loads, in bytes.
//   A2 activation time: require of extension.js (VS Code's "code loading") and activate(), each in a
//      fresh Node process with a stand-in for the 'vscode' module, FOR TIMING ONLY (bench/activation/):
//      not VS Code's own startup timing.
//   A3 VS Code's own activation times of each build (bench/activation/vscode-activation.ts), read in
//      fresh code-server windows: informational (a few wall-clock windows on a shared machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installVscodeStandIn } from './activation/install-stand-in';
import { extensionFolder, type VsCodeActivation, vscodeActivation } from './activation/vscode-activation';
import { vscodeAvailable } from './vscode-open';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';

const RUNS = 15;
/** Fresh VS Code windows per build (`--vscode-runs N`; 0 leaves the A3 row out). */
const VSCODE_RUNS = Number(argAfter('--vscode-runs') ?? 5);
const TARGET_RATIO = 0.5;
const TARGET_BYTES = 1_000_000;
const repoRoot = path.resolve(__dirname, '..');

interface Activation {
  loadMs: number;
  totalMs: number;
  loadCpuMs: number;
  totalCpuMs: number;
  loaded: string[];
}

const log = (s: string) => process.stderr.write(s + '\n');
function argAfter(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const f0 = (x: number) => x.toFixed(0);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

function build(outdir: string, eager: boolean): void {
  const args = ['esbuild.mjs', '--production', '--outdir', outdir, ...(eager ? ['--eager'] : [])];
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`esbuild.mjs ${args.join(' ')} failed: ${r.stderr}`);
}

function activate(dir: string, storage: string, settingsSet = false): Activation {
  const child = path.join(__dirname, 'activation', 'activate-child.cjs');
  const env = { ...process.env, ...(settingsSet ? { LOGBOOK_STAND_IN_SETTINGS: 'user' } : {}) };
  const r = spawnSync(process.execPath, [child, dir, storage], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`activating ${dir} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Activation;
}

const bytesOf = (dir: string, files: readonly string[]) =>
  files.reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);

/** A3: VS Code's own times of both builds in fresh windows, interleaved; none when it cannot run. */
async function vscodeRows(
  work: string,
  lazy: string,
  eager: string,
): Promise<{ ours: VsCodeActivation[]; before: VsCodeActivation[] } | undefined> {
  if (VSCODE_RUNS <= 0 || !vscodeAvailable()) return undefined;
  const ours: VsCodeActivation[] = [];
  const before: VsCodeActivation[] = [];
  const extLazy = extensionFolder(lazy, path.join(work, 'extension-lazy'));
  const extEager = extensionFolder(eager, path.join(work, 'extension-eager'));
  for (let r = 0; r < VSCODE_RUNS; r++) {
    ours.push(await vscodeActivation(extLazy, work));
    before.push(await vscodeActivation(extEager, work));
    log(`A3 window ${r + 1}: ${JSON.stringify(ours.at(-1))} / one bundle ${JSON.stringify(before.at(-1))}`);
  }
  return { ours, before };
}

async function main(): Promise<void> {
  const jsonAt = process.argv.indexOf('--json');
  const jsonOut = jsonAt >= 0 ? process.argv[jsonAt + 1] : undefined;
  const loadAtStart = os.loadavg();
  const t0 = performance.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-activation-bench-'));
  const rows: Row[] = [];
  const row = (workload: string, metric: string, value: string, target = '', pass: boolean | null = null) =>
    rows.push({ workload, metric, value, target, pass });
  try {
    const lazy = path.join(work, 'lazy');
    const eager = path.join(work, 'eager');
    build(lazy, false);
    build(eager, true);
    installVscodeStandIn(work);
    const storage = path.join(work, 'storage');
    fs.mkdirSync(storage);
    activate(lazy, storage); // first read of the files, not measured
    activate(eager, storage);
    const ours: Activation[] = [];
    const before: Activation[] = [];
    // Interleaved, so that the load others put on the machine hits both alike.
    const oursSet: Activation[] = [];
    for (let r = 0; r < RUNS; r++) {
      ours.push(activate(lazy, storage));
      before.push(activate(eager, storage));
      oursSet.push(activate(lazy, storage, true));
    }

    const loaded = ours[0]!.loaded;
    const bytes = bytesOf(lazy, loaded);
    const eagerBytes = bytesOf(eager, before[0]!.loaded);
    row(
      'A1 code at activation',
      'bytes of the bundles the extension loads at activation (extension.js and what it requires up front); ÷ the one-bundle build',
      `${bytes.toLocaleString('en-US')} (${loaded.join(', ')}); one bundle: ${eagerBytes.toLocaleString('en-US')}; ${(bytes / eagerBytes).toFixed(2)}×`,
      `≤ ${TARGET_BYTES.toLocaleString('en-US')}`,
      bytes <= TARGET_BYTES,
    );
    const m = (rs: Activation[], k: keyof Omit<Activation, 'loaded'>) => median(rs.map((r) => r[k]));
    const ratio = (k: keyof Omit<Activation, 'loaded'>) => m(ours, k) / m(before, k);
    const label = `median of ${RUNS} fresh processes each, interleaved; FOR TIMING ONLY: Node with a stand-in for 'vscode', not VS Code's startup timing`;
    row(
      'A2 activation',
      `require of extension.js + activate(), CPU time of the process; ${label}`,
      `${f0(m(ours, 'totalCpuMs'))} ms; one bundle ${f0(m(before, 'totalCpuMs'))} ms; ${ratio('totalCpuMs').toFixed(2)}×`,
      `≤ ${TARGET_RATIO}× the one-bundle build`,
      ratio('totalCpuMs') <= TARGET_RATIO,
    );
    row(
      'A2 activation',
      `the same, wall time; ${label}`,
      `${f0(m(ours, 'totalMs'))} ms; one bundle ${f0(m(before, 'totalMs'))} ms; ${ratio('totalMs').toFixed(2)}×`,
      `≤ ${TARGET_RATIO}× the one-bundle build`,
      ratio('totalMs') <= TARGET_RATIO,
    );
    row(
      'A2 activation',
      'of which the require alone (code loading: reading, compiling and running the bundles), CPU time',
      `${f0(m(ours, 'loadCpuMs'))} ms; one bundle ${f0(m(before, 'loadCpuMs'))} ms; ${ratio('loadCpuMs').toFixed(2)}×`,
    );

    row(
      'A2 activation',
      "the same CPU time in a window whose user set every setting (each one activation reads is parsed, so zod loads); ÷ the one-bundle build's above; informational",
      `${f0(m(oursSet, 'totalCpuMs'))} ms (${oursSet[0]!.loaded.join(', ')}); ${(m(oursSet, 'totalCpuMs') / m(before, 'totalCpuMs')).toFixed(2)}×`,
    );
    const inVsCode = await vscodeRows(work, lazy, eager);
    if (inVsCode) {
      const total = (a: VsCodeActivation) => a.loadCode + a.callActivate;
      const mv = (rs: VsCodeActivation[], f: (a: VsCodeActivation) => number) => median(rs.map(f));
      row(
        'A3 activation in VS Code',
        `VS Code's own activation time (Load Code + Call Activate of Developer: Startup Performance, as Show Running Extensions adds them), wall clock; median of ${inVsCode.ours.length} fresh code-server windows each, interleaved; informational`,
        `${f0(mv(inVsCode.ours, total))} ms (load ${f0(mv(inVsCode.ours, (a) => a.loadCode))}, activate ${f0(mv(inVsCode.ours, (a) => a.callActivate))}); ` +
          `one bundle ${f0(mv(inVsCode.before, total))} ms (load ${f0(mv(inVsCode.before, (a) => a.loadCode))}, activate ${f0(mv(inVsCode.before, (a) => a.callActivate))}); ` +
          `${(mv(inVsCode.ours, total) / mv(inVsCode.before, total)).toFixed(2)}×`,
      );
    } else
      row(
        'A3 activation in VS Code',
        "VS Code's own activation time",
        'not measured: code-server or Chromium is not installed, or --vscode-runs 0',
      );

    const wallMs = performance.now() - t0;
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ rows, ours, before }, null, 2));
    const mdFile = path.join(__dirname, 'ACTIVATION-RESULTS.md');
    const md = [
      '# Activation benchmark results',
      '',
      'Generated by `node --import tsx bench/activation-bench.ts` (part of `npm run bench`). Every ratio compares',
      'numbers measured in the same run on the same machine. Do not edit by hand; rerun the bench.',
      '',
      ...machineLines({ loadAtStart, wallMs }),
      '',
      '## Results',
      '',
      resultsTable(rows),
      '',
      '## How it is measured',
      '',
      '- Both builds come from this checkout in this run: `node esbuild.mjs --production` as `npm run package`',
      '  ships it, and `--eager`, the same sources with every stack in extension.js as before they loaded on',
      '  first use (the baseline).',
      "- Each activation is a fresh Node process (bench/activation/activate-child.cjs) that requires the build's",
      '  extension.js and calls `activate()` with a context of real folders. The `vscode` module is a stand-in',
      '  (bench/activation/vscode-stand-in.cjs) whose every member is a function returning another: the numbers',
      "  time Logbook's own code loading and activation only, not VS Code's, and are not VS Code's startup timing.",
      '- CPU time (user + system of the process, `process.cpuUsage`) is the row judged: on a machine other',
      '  processes load, wall time mostly measures waiting for a core.',
      "- The stand-in answers the settings as a fresh VS Code does (no value set, each setting's default): a",
      "  window whose user set a `logbook.*` setting also builds that setting's schema, and so loads zod, at activation.",
      "- A3 is VS Code's own number: each build, with the package's manifest, is the extension under development",
      '  in a fresh code-server window (headless Chromium, as the host tests run it); the window activates it and',
      '  reads the "Extension Activation Stats" of Developer: Startup Performance (bench/activation/vscode-timing-entry.cjs):',
      "  Load Code (VS Code's require of extension.js), Call Activate (until `activate()` returned) and Finish",
      '  Activate (until its promise settled). Wall clock in a browser-driven window on a shared machine, so informational.',
      '',
    ].join('\n');
    fs.writeFileSync(mdFile, await prettierMarkdown(mdFile, md));
    process.stdout.write('\n' + resultsTable(rows) + '\n\nwrote bench/ACTIVATION-RESULTS.md\n');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  log(String(err instanceof Error ? err.stack : err));
  process.exit(1);
});
