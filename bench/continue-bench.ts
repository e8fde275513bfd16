// Continue benchmark: what `logbook run` costs on a conversation of 100,000 imported events.
//   C1 one scripted turn (the model finishes at once) on the generated conversation, which the
//      default condenser kept condensed: process wall time, CPU time and peak RSS, against the same
//      run on a short conversation (and, for information, `logbook show` of the long one), taking
//      turns. CPU time is what others on a shared machine disturb least.
//   C2 the same on a conversation that was never condensed (the real OpenHands sample events
//      cycled): the first step condenses nearly the whole log; the largest record that run wrote
//      (the Condensation) and the summary request's size.
// Run: node --import tsx bench/continue-bench.ts [--json FILE] [--events N]. Writes
// bench/CONTINUE-RESULTS.md (not with --events, a smaller trial run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../src/core/agent/event-codec';
import { openEventStore } from '../src/core/log';
import { startScriptedLlm, type Scenario } from '../test/support/llm-server';
import { bundleCli, importWithCli, writeOpenHandsLayout, writeSampleLayout } from './imported-conversation';
import { prettierMarkdown, resultsTable, type Row } from './report';
import { f0, f1, f2, int, log, median, now, type ProcessRun, runs, timed } from './bench-support';

const EVENTS = 100_000;
const SEED = 7;
const RUNS = 9;
/** C1's target: continuing the long conversation ÷ continuing a short one by the same turn. */
const TARGET_RATIO = 1.25;
/**
 * The short conversation's events: the same generator's first ones, enough that the condenser has
 * run on it too, so its view (and the request to the model) is as large as the long one's: what
 * the ratio then shows is what the longer history costs, not a larger prompt.
 */
const SHORT_EVENTS = 1_000;
/** C1's first target, now printed for information: continuing it ÷ `logbook show` of it. */
const SHOW_RATIO = 1.5;
const TARGET_RSS_MB = 200;
const TARGET_RECORD_KB = 64;

const finish = { toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] };

/** One `logbook run` continuing a copy of `store` (copied untimed) against a scripted model. */
async function continueOnce(
  cli: string,
  store: string,
  work: string,
  scenario: Scenario,
): Promise<ProcessRun & { dir: string; length: number; requestBytes: number }> {
  const dir = path.join(work, `continued-${Math.random().toString(36).slice(2)}`);
  fs.cpSync(store, dir, { recursive: true });
  syncTree(dir);
  const ws = fs.mkdtempSync(path.join(work, 'ws-'));
  const before = await lengthOf(dir);
  const llm = await startScriptedLlm({ scenario });
  try {
    const env = { OPENAI_BASE_URL: llm.baseUrl, OPENAI_API_KEY: 'bench', LOGBOOK_MODEL: 'scripted-model' };
    const run = await timed([cli, 'run', '--workspace', ws, '--store', dir, '--task', 'say done'], env);
    if (llm.remainingTurns() !== 0)
      throw new Error('the scripted model was not asked what the scenario expects');
    const requestBytes = Math.max(...llm.completionBodies().map((b) => JSON.stringify(b).length));
    return { ...run, dir, length: before, requestBytes };
  } finally {
    await llm.close();
  }
}

/**
 * Puts a fresh copy on disk before the timed run: otherwise the run's first syncs of the log's files
 * wait for the copy's own megabytes to reach the disk (a cost of the copy, which a user's
 * conversation, written long before, never has).
 */
function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const fd = fs.openSync(file, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
  const fd = fs.openSync(dir, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

async function lengthOf(dir: string): Promise<number> {
  const s = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  const n = s.length;
  await s.close();
  return n;
}

/** The largest record (its JSON bytes) appended at or after `from`, and its kind. */
async function largestFrom(
  dir: string,
  from: number,
): Promise<{ bytes: number; kind: string; count: number }> {
  const s = await openEventStore<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  try {
    const slots = await s.slice(from);
    let best = { bytes: 0, kind: '', count: slots.length };
    for (const e of slots) {
      const bytes = Buffer.byteLength(JSON.stringify(e));
      if (bytes > best.bytes)
        best = { bytes, kind: String((e as { kind?: unknown }).kind), count: slots.length };
    }
    return best;
  } finally {
    await s.close();
  }
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const events = Number(arg('events') ?? EVENTS);
  const trial = events !== EVENTS;
  const jsonOut = arg('json');
  const loadAtStart = os.loadavg();
  const t0 = now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-continue-bench-'));
  const rows: Row[] = [];
  const row = (workload: string, metric: string, value: string, target = '', pass: boolean | null = null) =>
    rows.push({ workload, metric, value, target, pass });
  const L = `${events / 1000}k`;
  try {
    const cli = await bundleCli(work);
    const oh = await writeOpenHandsLayout(path.join(work, 'openhands'), events, SEED);
    const condensed = path.join(work, 'condensed');
    importWithCli(cli, oh.dir, condensed);
    fs.rmSync(oh.dir, { recursive: true, force: true });
    const sample = path.join(work, 'sample');
    writeSampleLayout(sample, events);
    const never = path.join(work, 'never-condensed');
    importWithCli(cli, sample, never);
    fs.rmSync(sample, { recursive: true, force: true });
    const shortOh = await writeOpenHandsLayout(path.join(work, 'openhands-short'), SHORT_EVENTS, SEED);
    const short = path.join(work, 'short');
    importWithCli(cli, shortOh.dir, short);
    fs.rmSync(shortOh.dir, { recursive: true, force: true });
    log(`imported ${int(events)} events twice in ${f1((now() - t0) / 1000)} s`);

    // ---- C1 ----
    // Continuing costs like opening when it reads the newest snapshot and the tail, not the
    // history: the long conversation's run is compared with the same run on a short one (the same
    // command, model turn, sandbox and fixed costs), the three processes taking turns.
    const show = () => timed([cli, 'show', condensed, '--json']);
    const oneTurn: Scenario = { name: 'one-turn', turns: [{ reply: finish }] };
    const continued = async (store: string) => {
      const c = await continueOnce(cli, store, work, oneTurn);
      fs.rmSync(c.dir, { recursive: true, force: true });
      return c;
    };
    await show(); // first touch of the files, not measured
    await continued(condensed); // warm-up
    await continued(short);
    const shows: ProcessRun[] = [];
    const conts: Awaited<ReturnType<typeof continueOnce>>[] = [];
    const shorts: typeof conts = [];
    for (let r = 0; r < RUNS; r++) {
      shows.push(await show());
      if (r % 2 === 0) {
        conts.push(await continued(condensed));
        shorts.push(await continued(short));
      } else {
        shorts.push(await continued(short));
        conts.push(await continued(condensed));
      }
    }
    const ms = (rs: ProcessRun[]) => median(rs.map((r) => r.ms));
    const cpu = (rs: ProcessRun[]) => median(rs.map((r) => r.cpuMs));
    const mb = (rs: ProcessRun[]) => median(rs.map((r) => r.maxRssMB));
    log(
      `C1 continue ${f0(ms(conts))} ms (${f1(mb(conts))} MB), of ${int(SHORT_EVENTS)} events ${f0(ms(shorts))} ms, show ${f0(ms(shows))} ms`,
    );
    row(
      `C1 continue ${L}`,
      `\`logbook run\` continuing the imported conversation by one scripted turn (the model finishes): process wall time; median of ${RUNS}, taking turns with the same run on a conversation of the generator's first ${int(SHORT_EVENTS)} events, and with show; the request to the model ${f1(median(conts.map((r) => r.requestBytes)) / 1024)} KB (${f1(median(shorts.map((r) => r.requestBytes)) / 1024)} KB on the short one)`,
      `${f0(ms(conts))} ms (runs: ${runs(
        conts.map((r) => r.ms),
        f0,
      )})`,
    );
    const judged = (what: string, of: (rs: ProcessRun[]) => number, field: 'ms' | 'cpuMs') => {
      const ratio = of(conts) / of(shorts);
      row(
        `C1 continue ${L}`,
        `${what} ÷ the same run on ${int(SHORT_EVENTS)} events (${f0(of(shorts))} ms; runs: ${runs(
          shorts.map((r) => r[field]),
          f0,
        )})`,
        `${f2(ratio)}×${
          field === 'cpuMs'
            ? ` (${f0(of(conts))} ms; runs: ${runs(
                conts.map((r) => r.cpuMs),
                f0,
              )})`
            : ''
        }`,
        `≤ ${TARGET_RATIO}×`,
        ratio <= TARGET_RATIO,
      );
    };
    judged('the same', ms, 'ms');
    judged('the same in CPU time (user + system, the processes it started included)', cpu, 'cpuMs');
    row(
      `C1 continue ${L}`,
      'the same: peak RSS of the process (median)',
      `${f1(mb(conts))} MB (runs: ${runs(
        conts.map((r) => r.maxRssMB),
        f1,
      )})`,
      `≤ ${TARGET_RSS_MB} MB`,
      mb(conts) <= TARGET_RSS_MB,
    );
    row(
      `C1 continue ${L}`,
      `informational, the target before it was restated (≤ ${SHOW_RATIO}×): the same ÷ \`logbook show --json\` of it, wall / CPU (show ${f0(ms(shows))} / ${f0(cpu(shows))} ms; runs: ${runs(
        shows.map((r) => r.ms),
        f0,
      )})`,
      `${f2(ms(conts) / ms(shows))}× / ${f2(cpu(conts) / cpu(shows))}×`,
    );

    // ---- C2 ----
    const summaryFirst: Scenario = {
      name: 'condense-then-finish',
      turns: [
        { match: { hasTools: false }, reply: { content: 'Summary of the earlier work.' } },
        { reply: finish },
      ],
    };
    const c2 = await continueOnce(cli, never, work, summaryFirst);
    const largest = await largestFrom(c2.dir, c2.length);
    fs.rmSync(c2.dir, { recursive: true, force: true });
    log(
      `C2 continue ${f0(c2.ms)} ms (${f1(c2.maxRssMB)} MB); largest record ${largest.bytes} B (${largest.kind})`,
    );
    row(
      `C2 first condensation ${L}`,
      `the largest record the continuing run wrote (${largest.count} records; the largest is a ${largest.kind}), on a conversation never condensed before`,
      `${f1(largest.bytes / 1024)} KB`,
      `≤ ${TARGET_RECORD_KB} KB`,
      largest.bytes <= TARGET_RECORD_KB * 1024,
    );
    row(
      `C2 first condensation ${L}`,
      'the same run: wall time, peak RSS, largest request to the model (its JSON)',
      `${f0(c2.ms)} ms, ${f1(c2.maxRssMB)} MB, ${f1(c2.requestBytes / 2 ** 20)} MiB`,
    );

    const total = (now() - t0) / 1000;
    const m = machine(loadAtStart);
    if (jsonOut)
      fs.writeFileSync(jsonOut, JSON.stringify({ machine: m, rows, shows, conts, shorts, c2 }, null, 2));
    if (!trial) {
      const mdFile = path.join(__dirname, 'CONTINUE-RESULTS.md');
      fs.writeFileSync(mdFile, await prettierMarkdown(mdFile, report(m, rows, events, total)));
    }
    process.stdout.write('\n' + resultsTable(rows) + '\n\n');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function machine(loadAtStart: number[]): Record<string, string> {
  const cpus = os.cpus();
  const load = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: String(cpus.length),
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
    'load average at start (1 / 5 / 15 min; other engineers share these cores)': load(loadAtStart),
    'load average at end (1 / 5 / 15 min)': load(os.loadavg()),
  };
}

function report(m: Record<string, string>, rows: Row[], events: number, total: number): string {
  return [
    '# Continue benchmark results',
    '',
    'Generated by `node --import tsx bench/continue-bench.ts` (bench/continue-bench.ts; part of `npm run bench`).',
    'Every ratio compares numbers measured in the same run on the same machine. Do not edit by hand;',
    'rerun the bench.',
    '',
    '## Machine',
    '',
    ...Object.entries(m).map(([k, v]) => `- ${k}: ${v}`),
    `- bench wall time: ${f1(total)} s`,
    '',
    '## Results',
    '',
    resultsTable(rows),
    '',
    '## How it is measured',
    '',
    `- Data: two conversations of ${int(events)} events in the OpenHands layout, imported with`,
    '  `logbook import-openhands` (snapshots written as an import writes them): the generated one of the',
    `  state benchmark (bench/conversation-generator.ts, seed ${SEED}), with the Condensations the default`,
    '  condenser would write; and the real OpenHands sample events cycled with fresh ids, which no',
    '  condenser ever touched. The CLI is bundled as `npm run package` ships it.',
    "- Each measurement is a whole process, Node's start included: its wall time from spawn to exit, its",
    "  CPU time and that of the processes it waited for (bash's `times`, to the millisecond; GNU time's",
    '  10 ms steps are too coarse for this ratio) and its peak RSS (GNU `time -f %M`). C1 holds in wall',
    "  and CPU time both; on a loaded machine the wall ratio carries the others' noise, the CPU one less. The run is a",
    '  `logbook run --store COPY --task ...` on a fresh copy of the imported conversation (copied and',
    '  synced to disk untimed, so that the run does not wait for the copy to be written) against the',
    '  scripted OpenAI-compatible server (test/support/llm-server) in this process,',
    '  with the sandbox as the CLI sets it up by default.',
    `- C1 compares the run with the same run on a conversation of the generator's first ${int(SHORT_EVENTS)} events, imported`,
    '  the same way: the same command, model turn and sandbox, and a view the condenser kept as large (the',
    '  requests to the model are about the same size), so the ratio is what the history costs a continue.',
    '  It was first stated against `logbook show --json` of the long conversation (≤ 1.5×), which',
    "  reads it the same way but does none of a run's fixed work (the model client, the agent loop, the",
    '  signed appends and their syncs): that ratio rose whenever show got faster (a faster listing of the',
    "  log's signers took it from 1.2× to 1.5×), so it is printed for information, the three processes",
    '  taking turns.',
    '- C2: the model is first asked for the summary of the condensation (the view holds nearly the whole',
    '  log), then finishes. The largest record is the JSON of each event the run appended.',
    '',
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
