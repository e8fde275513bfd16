// Where the CPU of a one-turn continue goes (bench row C1): the bundled CLI (names kept) continues a
// copy of an imported conversation by one scripted turn under `node --cpu-prof`, several times, and
// each sample is given to a phase of the run and, inside an append, to a part of the append path.
// Each phase is the innermost frame on the sample's stack that belongs to one. Medians of the runs.
//
//   npx tsx bench/continue-profile.ts [--events 100000] [--runs 5] [--interval 100]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startScriptedLlm } from '../test/support/llm-server';
import { median } from './bench-support';
import { bundleCli, importWithCli, writeOpenHandsLayout } from './imported-conversation';

interface Frame {
  functionName: string;
  url: string;
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
type Rule = [name: string, fn: RegExp, url?: RegExp];

// The run's phases, innermost first wins (the function names of the readable bundle).
const RUN: Rule[] = [
  ["append the turn's events", /^appendEvent\d*$/],
  ['condensation check', /^condenseIfDue\d*$/],
  ['model call (client, request, stream)', /./, /lazy\/openai\.js#/],
  ['open the conversation (memory, view)', /^(resume|restoreView)\d*$/],
  ['open the signed store', /^openConversationStore\d*$/],
  ['survey the workspace (git)', /^surveyWorkspace\d*$/],
  ['start the shell', /^startShell\d*$/],
  ['risk of commands (hooks, rules)', /^analyzeArgv\d*$/],
  ['signing key', /^cliSigningIdentity\d*$/],
  ['garbage collection', /^\(garbage collector\)$/],
  ['load and compile modules', /^(Module\._load|compileForInternalLoader|wrapSafe)$/],
  ['idle (waiting for the model, the disk)', /^\(idle\)$/],
];
// Inside an append: listeners are reached from the store's notifyAll.
const APPEND: Rule[] = [
  ['fdatasync', /^fdatasync$/],
  ['print the event (CLI output)', /^printed\d*$/],
  ['signature chain (hash, sign)', /./, /signing\//],
  ['hooks, stuck detector and other listeners', /^notifyAll\d*$/],
  ['redact secrets', /^event\d*$/, /secret/],
  ['memory (state reducer, pending actions)', /^absorb\d*$/],
  ['id index (duplicate and parent checks)', /^(find|ensure|load)\d*$/, /id-index/],
  ['encode (JSON)', /^encodeChecked\d*$/],
  ['write the record', /^write\d*$/, /segment-writer/],
  ['store bookkeeping', /^append(Sync)?\d*$/],
];

/** The source module of a frame: the `// src/...` marker above its line in the bundle. */
function withModules(profile: Profile, dir: string): void {
  const markers = new Map<string, { line: number; module: string }[]>();
  for (const n of profile.nodes) {
    const f = n.callFrame as Frame & { lineNumber: number };
    // A bundle compiled from the compile cache is named as the process that saved the cache named
    // it (an identical bundle, maybe elsewhere): frames are read by their place in the bundle tree.
    const tail = /\/((?:cli|lazy)\/[^/]+\.js|cli\.js)$/.exec(f.url)?.[1];
    const file = tail === undefined ? '' : path.join(dir, tail);
    if (!file || !fs.existsSync(file)) continue;
    let list = markers.get(file);
    if (!list) {
      list = [];
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((text, line) => {
          const m = /^\/\/ (src\/\S+)$/.exec(text);
          if (m) list!.push({ line, module: m[1]! });
        });
      markers.set(file, list);
    }
    const at = list.filter((m) => m.line <= f.lineNumber).at(-1);
    f.url = `${f.url}#${at?.module ?? ''}`;
  }
}

function phases(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const match = (rules: Rule[], n: ProfileNode) =>
    rules.find(
      ([, fn, url]) => fn.test(n.callFrame.functionName) && (!url || url.test(n.callFrame.url)),
    )?.[0];
  const out = new Map<string, number>();
  const add = (k: string, us: number) => out.set(k, (out.get(k) ?? 0) + us);
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      stack.push(byId.get(cur)!);
    const at = stack.findIndex((n) => match(RUN, n));
    const run = at < 0 ? 'other' : match(RUN, stack[at]!)!;
    add(run, us);
    add('total', us);
    if (at < 0 || run !== RUN[0]![0]) return;
    const part = stack.slice(0, at).find((n) => match(APPEND, n));
    add(`  ${part ? match(APPEND, part)! : 'other'}`, us);
  });
  return out;
}

/** The run's phases, largest first, each append part under the append row. */
function ordered(names: string[], ms: (k: string) => number): string[] {
  const bySize = (a: string, b: string) => ms(b) - ms(a);
  const parts = names.filter((k) => k.startsWith('  ')).sort(bySize);
  return names
    .filter((k) => !k.startsWith('  '))
    .sort(bySize)
    .flatMap((k) => (k === RUN[0]![0] ? [k, ...parts] : [k]));
}

async function continueProfiled(
  cli: string,
  store: string,
  work: string,
  interval: number,
): Promise<Profile> {
  const dir = fs.mkdtempSync(path.join(work, 'run-'));
  fs.cpSync(store, path.join(dir, 'store'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'ws'));
  const llm = await startScriptedLlm({
    scenario: {
      name: 'one-turn',
      turns: [{ reply: { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] } }],
    },
  });
  try {
    const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`, cli, 'run'];
    args.push('--workspace', path.join(dir, 'ws'), '--store', path.join(dir, 'store'), '--task', 'say done');
    const env = {
      ...process.env,
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'bench',
      LOGBOOK_MODEL: 'scripted-model',
    };
    // Asynchronous: the scripted model answers from this process.
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the run failed (${code}): ${err}`);
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('node wrote no profile');
    return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
  } finally {
    await llm.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const events = arg('--events', 100_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-continue-profile-'));
  try {
    const cli = await bundleCli(path.join(work, 'cli'), { readable: true });
    const oh = await writeOpenHandsLayout(path.join(work, 'openhands'), events, 7);
    const store = path.join(work, 'store');
    importWithCli(cli, oh.dir, store);
    fs.rmSync(oh.dir, { recursive: true, force: true });
    await continueProfiled(cli, store, work, arg('--interval', 100)); // warm-up (files, compile cache)
    const all: Map<string, number>[] = [];
    for (let r = 0; r < arg('--runs', 5); r++) {
      const profile = await continueProfiled(cli, store, work, arg('--interval', 100));
      withModules(profile, path.join(work, 'cli'));
      all.push(phases(profile));
    }
    const names = [...new Set(all.flatMap((m) => [...m.keys()]))];
    const ms = (k: string) => median(all.map((m) => (m.get(k) ?? 0) / 1000));
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    const lines = [
      `${events} events, ${all.length} runs (medians, ms of profiled time); load average ${load}`,
      '',
      '| phase | ms |',
      '|---|---|',
      ...ordered(names, ms).map(
        (k) => `| ${k.startsWith('  ') ? '↳ ' + k.trim() : k} | ${ms(k).toFixed(1)} |`,
      ),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
