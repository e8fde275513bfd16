// Where an import's CPU goes: the bundled CLI (names kept) imports the sample events under
// `node --cpu-prof`, and each sample of the profile is given to the phase of the innermost function
// on its stack that belongs to one. bench/IMPORT-PROFILE.md records a run.
//
//   npx tsx bench/import-profile.ts [--events 20000] [--top 15]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleCli, writeSampleLayout } from './imported-conversation';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A phase: which frames belong to it, by the bundled module they are in and their name. */
interface Phase {
  name: string;
  module?: RegExp;
  fn?: RegExp;
}

// Innermost first wins, so a phase nested in another (reading, inside the source store) is listed
// on its own; what matches none goes to the nearest caller that does.
const PHASES: Phase[] = [
  { name: 'garbage collection', fn: /^\(garbage collector\)$/ },
  { name: 'waiting: for the disk (syncs) or with nothing to run', fn: /^(\(idle\)|fsync|fdatasync)$/ },
  { name: 'read the event files (readFileSync)', fn: /^readFileSync$/ },
  { name: 'list the events folder', fn: /^readdirSync$/ },
  { name: 'parse and validate (zod) each event', module: /event-codec\.ts$/, fn: /^decode\d*$/ },
  { name: 'encode each event for the log', fn: /^encodeChecked\d*$/ },
  { name: 'frame, checksum and write the records', module: /segment-writer\.ts$/ },
  { name: 'hash each record for the signature chain', module: /import-openhands\.ts$/, fn: /^onAppend$/ },
  { name: 'state and view for the snapshots', module: /snapshot-follower\.ts$/ },
  { name: 'chain the imported records and sign the import', fn: /^openSignedStore\d*$/ },
  {
    name: 'ids, positions and sparse indexes',
    module: /(id-index|sparse-index|pos-table|index-checkpoints)\.ts$/,
  },
  { name: 'append bookkeeping (store)', module: /segment-store\.ts$/ },
  { name: 'source store (names, iteration)', module: /openhands-dir-store\.ts$/ },
  {
    name: 'start the CLI (load and initialize modules)',
    fn: /^(wrapSafe|__init|init_.*|require_.*|Module\._load)$/,
  },
];

/** For each line of an unminified esbuild bundle, the source module it came from (its `// src/...` marker). */
function moduleOfLine(bundle: string): (line: number) => string {
  const starts: { line: number; module: string }[] = [];
  bundle.split('\n').forEach((text, i) => {
    const m = /^\/\/ (\S+\.(?:[cm]?js|tsx?|json))$/.exec(text);
    if (m) starts.push({ line: i, module: m[1]! });
  });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]!.line <= line) {
        found = starts[mid]!.module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** The source module of a line of any bundle in `dir` (the CLI and its lazily loaded bundles), else the url. */
function moduleOfFrame(dir: string): (f: Frame) => string {
  const byUrl = new Map<string, ((line: number) => string) | null>();
  return (f) => {
    let of = byUrl.get(f.url);
    if (of === undefined) {
      const file = f.url.startsWith('file://') ? new URL(f.url).pathname : f.url;
      of = file.startsWith(dir) && fs.existsSync(file) ? moduleOfLine(fs.readFileSync(file, 'utf8')) : null;
      byUrl.set(f.url, of);
    }
    return of ? of(f.lineNumber) : f.url;
  };
}

function breakdown(profile: Profile, bundlePath: string, top: number): string[] {
  const moduleOf = moduleOfFrame(path.dirname(bundlePath));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const phaseOf = new Map<number, string>();
  const own = (n: ProfileNode): string | undefined => {
    const f = n.callFrame;
    const module = moduleOf(f);
    return PHASES.find(
      (p) =>
        (!p.module || p.module.test(module)) && (!p.fn || p.fn.test(f.functionName)) && (p.module || p.fn),
    )?.name;
  };
  const phase = (id: number): string => {
    const known = phaseOf.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const up = parent.get(id);
    const p = own(n) ?? (up === undefined ? 'other' : phase(up));
    phaseOf.set(id, p);
    return p;
  };
  const perPhase = new Map<string, number>();
  const selfTime = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const p = phase(id);
    perPhase.set(p, (perPhase.get(p) ?? 0) + dt);
    const f = byId.get(id)!.callFrame;
    const where = moduleOf(f) || '(native)';
    const key = `${f.functionName || '(anonymous)'} (${where})`;
    selfTime.set(key, (selfTime.get(key) ?? 0) + dt);
  });
  const row = (name: string, us: number) =>
    `| ${name} | ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} % |`;
  return [
    `Profiled time: ${(total / 1e6).toFixed(2)} s.`,
    '',
    '| phase | ms | share |',
    '|---|---|---|',
    ...[...perPhase].sort((a, b) => b[1] - a[1]).map(([name, us]) => row(name, us)),
    '',
    `Top ${top} functions by their own time:`,
    '',
    '| function (module) | ms | share |',
    '|---|---|---|',
    ...[...selfTime]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => row(name.replaceAll('|', '\\|'), us)),
  ];
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const n = arg('--events', 20_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-import-profile-'));
  try {
    const cli = await bundleCli(work, { readable: true });
    const source = path.join(work, 'oh');
    writeSampleLayout(source, n);
    const profDir = path.join(work, 'prof');
    const r = spawnSync(
      process.execPath,
      [
        '--cpu-prof',
        `--cpu-prof-dir=${profDir}`,
        cli,
        'import-openhands',
        source,
        '--store',
        path.join(work, 'store'),
      ],
      { encoding: 'utf8', env: { ...process.env, LOGBOOK_SIGNING_KEY: path.join(work, 'key') } },
    );
    if (r.status !== 0) throw new Error(`import failed (${r.status}): ${r.stderr}`);
    // One profile per thread (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): the main thread's
    // is broken down; a worker's (the files read ahead) is only summed.
    const files = fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
    const threadOf = (f: string) => Number(f.split('.').at(-3));
    const file = files.find((f) => threadOf(f) === 0);
    if (!file) throw new Error('node wrote no profile of its main thread');
    const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as Profile;
    // A worker's samples that are not its reading are it waiting for the main thread to catch up.
    const reading = (p: Profile) => {
      const byId = new Map(p.nodes.map((x) => [x.id, x]));
      const up = new Map<number, number>();
      for (const x of p.nodes) for (const c of x.children ?? []) up.set(c, x.id);
      const reads = (id: number | undefined): boolean =>
        id !== undefined && (byId.get(id)!.callFrame.functionName === 'readFileSync' || reads(up.get(id)));
      return p.samples.reduce((a, id, i) => a + (reads(id) ? (p.timeDeltas[i] ?? 0) : 0), 0) / 1000;
    };
    const workers = files
      .filter((f) => f !== file)
      .map((f) => reading(JSON.parse(fs.readFileSync(path.join(profDir, f), 'utf8')) as Profile));
    const loadavg = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    process.stdout.write(
      [
        `${n} sample events; load average ${loadavg}`,
        ...workers.map(
          (ms) =>
            `A worker thread read the event files ahead, ${ms.toFixed(0)} ms of reading (not in the table).`,
        ),
        '',
        ...breakdown(profile, cli, arg('--top', 15)),
      ].join('\n') + '\n',
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
