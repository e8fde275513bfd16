// Storage benchmark: does a conversation's cost grow with its length, not its square? The real
// OpenHands sample events (about 1.3 KB each), cycled with fresh ids, are written in the OpenHands
// layout at two lengths and imported with the bundled `logbook` CLI, as a user would; every ratio
// below compares numbers measured in this run.
//
//   npx tsx bench/storage-bench.ts [--events 100000]      writes bench/STORAGE-RESULTS.md
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventFileName } from '../src/core/log';
import { bundleCli } from './imported-conversation';
import { prettierMarkdown, resultsTable, type Row } from './report';

const repoRoot = path.resolve(__dirname, '..');

function sampleEvents(): Record<string, unknown>[] {
  return fs
    .readFileSync(path.join(repoRoot, 'test/fixtures/openhands/real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `n` sample events in the OpenHands layout; their JSON bytes. */
function writeLayout(dir: string, n: number): number {
  fs.mkdirSync(path.join(dir, 'events'), { recursive: true });
  fs.copyFileSync(
    path.join(repoRoot, 'test/fixtures/openhands/base_state.json'),
    path.join(dir, 'base_state.json'),
  );
  const sample = sampleEvents();
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const json = JSON.stringify({ ...sample[i % sample.length], id });
    bytes += Buffer.byteLength(json);
    fs.writeFileSync(path.join(dir, 'events', eventFileName(i, id)), json);
  }
  return bytes;
}

/** Bytes of the files under `dir`. */
function du(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce(
      (a, f) => a + (f.isDirectory() ? du(path.join(dir, f.name)) : fs.statSync(path.join(dir, f.name)).size),
      0,
    );
}

/** A whole process: wall ms from spawn to exit and its peak RSS (GNU time). */
function timed(args: string[]): { ms: number; rssMB: number } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, rssMB: Number(r.stderr.trim().split('\n').at(-1)) / 1024 };
}

/** Reading and parsing every event file, nothing stored: the floor under an import. */
function readAndParseMs(dir: string): number {
  const t0 = performance.now();
  const events = path.join(dir, 'events');
  let n = 0;
  for (const f of fs.readdirSync(events).sort()) {
    if ((JSON.parse(fs.readFileSync(path.join(events, f), 'utf8')) as { id?: string }).id) n++;
  }
  if (n === 0) throw new Error('no events read');
  return performance.now() - t0;
}

interface Measured {
  n: number;
  jsonBytes: number;
  store: number;
  segments: number;
  snapshots: number;
  newestSnapshot: number;
  importMs: number;
  importRssMB: number;
  readParseMs: number;
  showMs: number;
}

function measure(cli: string, work: string, n: number): Measured {
  const source = path.join(work, `oh-${n}`);
  const store = path.join(work, `store-${n}`);
  const jsonBytes = writeLayout(source, n);
  const readParseMs = readAndParseMs(source);
  const imp = timed([cli, 'import-openhands', source, '--store', store]);
  const show = timed([cli, 'show', store, '--json']);
  const snapDir = path.join(store, 'snapshots');
  const snaps = fs.readdirSync(snapDir).sort();
  return {
    n,
    jsonBytes,
    store: du(store),
    segments: du(path.join(store, 'segments')),
    snapshots: du(snapDir),
    newestSnapshot: fs.statSync(path.join(snapDir, snaps.at(-1)!)).size,
    importMs: imp.ms,
    importRssMB: imp.rssMB,
    readParseMs,
    showMs: show.ms,
  };
}

const MB = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
const x = (r: number) => `${r.toFixed(2)}×`;

async function main(): Promise<void> {
  const i = process.argv.indexOf('--events');
  const big = i >= 0 ? Number(process.argv[i + 1]) : 100_000;
  const small = Math.max(1000, Math.round(big / 10));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-storage-bench-'));
  try {
    const cli = await bundleCli(work);
    const s = measure(cli, work, small);
    const b = measure(cli, work, big);
    const w = `${big} sample events`;
    // A snapshot is written every SNAPSHOT_EVERY (500) events; at this length each is about the newest's size.
    const snapshotPerEvent = b.newestSnapshot / 500 / (b.jsonBytes / b.n);
    const rows: Row[] = [
      {
        workload: w,
        metric: 'SDK JSON / segments / snapshots / store',
        value: `${MB(b.jsonBytes)} / ${MB(b.segments)} / ${MB(b.snapshots)} / ${MB(b.store)}`,
        target: '',
        pass: null,
      },
      {
        workload: w,
        metric: 'store ÷ SDK JSON bytes',
        value: x(b.store / b.jsonBytes),
        target: '≤ 1.2×',
        pass: b.store / b.jsonBytes <= 1.2,
      },
      {
        workload: w,
        metric: 'snapshots ÷ segments',
        value: x(b.snapshots / b.segments),
        target: '≤ 0.25×',
        pass: b.snapshots / b.segments <= 0.25,
      },
      {
        workload: `${small} → ${big}`,
        metric: 'store ÷ store at a tenth of the length',
        value: x(b.store / s.store),
        target: '≤ 11×',
        pass: b.store / s.store <= 11,
      },
      {
        workload: w,
        metric: 'snapshot bytes written per appended event ÷ its bytes',
        value: `${(100 * snapshotPerEvent).toFixed(2)} %`,
        target: '≤ 10 %',
        pass: snapshotPerEvent <= 0.1,
      },
      {
        workload: w,
        metric: 'import peak RSS',
        value: `${b.importRssMB.toFixed(0)} MB`,
        target: '≤ 300 MB',
        pass: b.importRssMB <= 300,
      },
      {
        workload: w,
        metric: 'import time ÷ reading and parsing the files',
        value: `${x(b.importMs / b.readParseMs)} (${(b.importMs / 1000).toFixed(1)} s)`,
        target: '≤ 1.5×',
        pass: b.importMs / b.readParseMs <= 1.5,
      },
      {
        workload: w,
        metric: '`logbook show --json` (whole process)',
        value: `${(b.showMs / 1000).toFixed(2)} s`,
        target: '≤ 0.5 s',
        pass: b.showMs <= 500,
      },
    ];
    const table = resultsTable(rows);
    process.stdout.write(table + '\n');
    if (i < 0) {
      const file = path.join(__dirname, 'STORAGE-RESULTS.md');
      const md = `# Storage benchmark\n\n${table}\n\nmachine: ${os.cpus()[0]?.model ?? '?'}, node ${process.version}\n`;
      fs.writeFileSync(file, await prettierMarkdown(file, md));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
