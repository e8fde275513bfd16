// Storage benchmark: does a conversation's cost grow with its length, not its square? The real
// OpenHands sample events (about 1.3 KB each), cycled with fresh ids, are written in the OpenHands
// layout at two lengths and imported with the bundled `logbook` CLI, as a user would, then the long
// one is opened in the real VS Code (code-server and headless Chromium, bench/vscode-open.ts); every
// ratio below compares numbers measured in this run.
//
//   npx tsx bench/storage-bench.ts [--events 100000] [--no-vscode] [--import-only]
//
// Without --events (nor --import-only) it writes bench/STORAGE-RESULTS.md. --import-only measures
// the store and the import, without `logbook show` and VS Code (for trying a change to the import).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { importEventCodec } from '../src/core/agent/event-codec';
import { crc32 } from '../src/core/log/record-format';
import { bundleCli, lastRowSeq, sampleEvents, writeSampleLayout } from './imported-conversation';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';
import { measureVsCodeOpens, vscodeAvailable } from './vscode-open';

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

/** A whole process: wall ms from spawn to exit, its CPU ms (user + system) and peak RSS (GNU time). */
function timed(args: string[]): { ms: number; cpuMs: number; rssMB: number } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', process.execPath, ...args], { encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [user, sys, rss] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { ms, cpuMs: (user! + sys!) * 1000, rssMB: rss! / 1024 };
}

interface Cost {
  ms: number;
  cpuMs: number;
}

/** Wall and CPU ms of `f`, in this process. */
function cost(f: () => void): Cost {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}

/** Each event file of `dir`, in order, handed to `visit` as read. */
function eachEventFile(dir: string, visit: (text: string) => void): void {
  const events = path.join(dir, 'events');
  for (const f of fs.readdirSync(events).sort()) visit(fs.readFileSync(path.join(events, f), 'utf8'));
}

/** Reading and parsing every event file, nothing stored: the floor under an import. */
function readAndParse(dir: string): Cost {
  let n = 0;
  const c = cost(() =>
    eachEventFile(dir, (text) => {
      if ((JSON.parse(text) as { id?: string }).id) n++;
    }),
  );
  if (n === 0) throw new Error('no events read');
  return c;
}

/**
 * The least an import does with each event besides reading and parsing it, none of it optional:
 * check it is an event (the codec's validation), encode it as the log stores it, checksum and hash
 * the record (the signature chain), write it to a file. No state, indexes, snapshots or syncs.
 */
function leastImportWork(dir: string, scratch: string): Cost {
  const fd = fs.openSync(scratch, 'w');
  try {
    return cost(() =>
      eachEventFile(dir, (text) => {
        const json = importEventCodec.encode(importEventCodec.decode(text, 0));
        crc32(json);
        crypto.hash('sha256', json, 'buffer');
        fs.writeSync(fd, json + '\n');
      }),
    );
  } finally {
    fs.closeSync(fd);
    fs.rmSync(scratch, { force: true });
  }
}

interface Measured {
  n: number;
  jsonBytes: number;
  store: number;
  segments: number;
  snapshots: number;
  newestSnapshot: number;
  importMs: number;
  importCpuMs: number;
  importRssMB: number;
  readParse: Cost;
  least: Cost;
  /** import ÷ floor of each pair, in run order */
  ratios: string;
}

/** Floor and import, one after the other, this many times: the machine is shared, one pair can be unlucky. */
const PAIRS = 3;

function measure(cli: string, work: string, n: number): Measured {
  const source = path.join(work, `oh-${n}`);
  const store = path.join(work, `store-${n}`);
  const jsonBytes = writeSampleLayout(source, n);
  const readParse = readAndParse(source);
  const pairs = Array.from({ length: PAIRS }, () => {
    fs.rmSync(store, { recursive: true, force: true });
    const least = leastImportWork(source, path.join(work, 'least.log'));
    return { least, imp: timed([cli, 'import-openhands', source, '--store', store]) };
  });
  // The pair with the median ratio, its import's store kept (the last one written is the same log).
  const { least, imp } = [...pairs].sort((a, b) => a.imp.ms / a.least.ms - b.imp.ms / b.least.ms)[
    PAIRS >> 1
  ]!;
  const ratios = pairs.map((p) => x(p.imp.ms / p.least.ms)).join(' / ');
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
    importCpuMs: imp.cpuMs,
    importRssMB: Math.max(...pairs.map((p) => p.imp.rssMB)),
    readParse,
    least,
    ratios,
  };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The chat's newest row of `n` cycled sample events (bench/vscode-open.ts waits for it). */
function sampleLastRowSeq(n: number): number {
  const kinds = sampleEvents().map((e) => String(e.kind));
  return lastRowSeq(Array.from({ length: n }, (_, i) => kinds[i % kinds.length]!));
}

/**
 * `logbook show` of the long conversation against the same of a 10-event one, in interleaved runs:
 * both cost mostly the CLI's start, which the machine's load stretches alike. The 0.5 s the issue
 * asks is the absolute; the ratio says the long history adds nothing that grows with it.
 */
function showRows(cli: string, work: string, bigStore: string, w: string): Row[] {
  const tiny = path.join(work, 'oh-10');
  const tinyStore = path.join(work, 'store-10');
  writeSampleLayout(tiny, 10);
  timed([cli, 'import-openhands', tiny, '--store', tinyStore]);
  const big: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < 5; i++) {
    big.push(timed([cli, 'show', bigStore, '--json']).ms);
    floor.push(timed([cli, 'show', tinyStore, '--json']).ms);
  }
  const ratios = big.map((b, i) => b / floor[i]!);
  const ms = (xs: number[]) => xs.map((v) => v.toFixed(0)).join(' / ');
  return [
    {
      workload: w,
      metric: '`logbook show --json` (whole process), median of 5',
      value: `${(median(big) / 1000).toFixed(2)} s (runs: ${ms(big)} ms)`,
      target: 'informational (≤ 0.5 s, machine-bound)',
      pass: null,
    },
    {
      workload: w,
      metric:
        'the same ÷ `logbook show --json` of a 10-event conversation (the floor: starting the CLI), median of 5 interleaved pairs',
      value: `${x(median(ratios))} (floor ${ms(floor)} ms)`,
      target: '≤ 1.25×',
      pass: median(ratios) <= 1.25,
    },
  ];
}

const MB = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
const x = (r: number) => `${r.toFixed(2)}×`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = os.loadavg();
  const i = process.argv.indexOf('--events');
  const big = i >= 0 ? Number(process.argv[i + 1]) : 100_000;
  const importOnly = process.argv.includes('--import-only');
  const withVsCode = !importOnly && !process.argv.includes('--no-vscode') && vscodeAvailable();
  const small = Math.max(1000, Math.round(big / 10));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-storage-bench-'));
  try {
    const cli = await bundleCli(work);
    const s = measure(cli, work, small);
    const b = measure(cli, work, big);
    const w = `${big} sample events`;
    // Only the snapshots the store keeps are written (and a live conversation writes one every
    // SNAPSHOT_EVERY, 500, events); at this length each is about the newest's size.
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
        metric: 'import peak RSS (whole process)',
        value: `${b.importRssMB.toFixed(0)} MB (at ${small}: ${s.importRssMB.toFixed(0)} MB)`,
        target: '≤ 300 MB',
        pass: b.importRssMB <= 300,
      },
      {
        workload: w,
        metric: 'import wall time (whole process) ÷ reading and parsing the files (in process)',
        value: `${x(b.importMs / b.readParse.ms)} (${sec(b.importMs)} ÷ ${sec(b.readParse.ms)})`,
        target: '',
        pass: null,
      },
      {
        workload: w,
        metric:
          'import wall time (whole process) ÷ the least an import must do (in process, the row below): what the import does beyond the floor; median of 3 pairs, each the floor then the import',
        value: `${x(b.importMs / b.least.ms)} (${sec(b.importMs)} ÷ ${sec(b.least.ms)}; pairs: ${b.ratios})`,
        target: '≤ 1.5×',
        pass: b.importMs / b.least.ms <= 1.5,
      },
      {
        workload: w,
        metric:
          'the same in CPU time (user + system, of every thread), which others on the machine disturb less',
        value: `${x(b.importCpuMs / b.least.cpuMs)} (${sec(b.importCpuMs)} ÷ ${sec(b.least.cpuMs)})`,
        target: '',
        pass: null,
      },
      {
        workload: w,
        metric:
          'the least an import must do (read, parse, validate, encode, checksum, hash, write; in process) ÷ reading and parsing: wall / CPU',
        value: `${x(b.least.ms / b.readParse.ms)} / ${x(b.least.cpuMs / b.readParse.cpuMs)} (${sec(b.least.ms)} / ${sec(b.least.cpuMs)})`,
        target: '',
        pass: null,
      },
      ...(importOnly ? [] : showRows(cli, work, path.join(work, `store-${big}`), w)),
    ];
    if (withVsCode) {
      const log = (line: string) => process.stderr.write(line + '\n');
      const opens = await measureVsCodeOpens({
        work,
        cli,
        store: path.join(work, `store-${big}`),
        lastRowSeq: sampleLastRowSeq(big),
        log,
      });
      const v = median(opens.imported.map((r) => r.ms));
      const floor = median(opens.small.map((r) => r.ms));
      const runs = (rs: { ms: number }[]) => rs.map((r) => r.ms.toFixed(0)).join(' / ');
      rows.push(
        {
          workload: w,
          metric: `"Logbook: Open Conversation" in VS Code (code-server), from choosing it until the chat shows its newest event; median of ${opens.imported.length} fresh VS Codes`,
          value: `${v.toFixed(0)} ms (runs: ${runs(opens.imported)})`,
          target: 'informational (≤ 1000 ms, machine-bound)',
          pass: null,
        },
        {
          workload: w,
          // The 1 s target restated as a ratio to its floor, which others on the machine slow alike:
          // the floor measures about 0.4 s on a quiet machine, so 2.5× of it is the 1 s asked for.
          metric: `the same ÷ the same open of a ${opens.smallCount}-event conversation, in the same runs (the floor: VS Code, the webview, the open itself)`,
          value: `${x(v / floor)} (${floor.toFixed(0)} ms; runs: ${runs(opens.small)})`,
          target: '≤ 2.5×',
          pass: v / floor <= 2.5,
        },
      );
    }
    const table = resultsTable(rows);
    process.stdout.write(table + '\n');
    if (i < 0 && !importOnly) {
      const file = path.join(__dirname, 'STORAGE-RESULTS.md');
      const md = [
        '# Storage benchmark',
        '',
        'Generated by `npx tsx bench/storage-bench.ts` (bench/storage-bench.ts). Every ratio compares',
        'numbers measured in the same run on the same machine. Do not edit by hand; rerun the bench.',
        '',
        '## Results',
        '',
        table,
        '',
        ...machineLines({ loadAtStart, wallMs: performance.now() - started }),
        '',
        '## How it is measured',
        '',
        `- Data: the ${sampleEvents().length} real OpenHands sample events (test/fixtures/openhands/real-events.jsonl),`,
        '  cycled with fresh ids, in the OpenHands SDK layout (one JSON file per event), nothing condensed.',
        '- Import and show: the bundled CLI as it ships, one process each, timed by GNU time.',
        '- Reading and parsing: every event file read and `JSON.parse`d in this process, nothing kept.',
        '- The least an import must do and the import: three pairs, one after the other; the row gives',
        '  the pair with the median ratio. The import reads the event files ahead on a second thread',
        '  (the floor reads them on one), so a busy second core slows it more than the floor.',
        '- VS Code: bench/vscode-open.ts, a fresh code-server and Chromium per run, interleaved with',
        "  the open of the small conversation so the machine's load hits both alike.",
        '',
      ].join('\n');
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
