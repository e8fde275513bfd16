// Workspace checkpoint benchmark: a generated workspace of 5,000 files / 200 MB.
//   C1 first checkpoint (empty store)            target ≤ 3 s      → ≤ 7.0× the copy of the workspace
//   C2 later checkpoint, 10 files changed        target ≤ 150 ms   → ≤ 0.33× the copy (median of 10 rounds)
//   C3 storage growth over those rounds          target ≤ 1.2 × the bytes of the changed files
//   C4 restore of 100 changed files              target ≤ 1 s      → ≤ 1.0× copying it back
//   C5 ignored files held within the budget, and coverage() before an action (measured, no target)
// The times depend on how busy the shared machine is (the same code measured 1.5 s and 26 s for C1
// at load 0.8 and 17), so each absolute target is restated as a ratio to the baseline measured in
// the same run, a copy of the workspace per checkpoint (copied back to restore): the target divided
// by the baseline's time on a quiet run of this machine (load 0.8: copy 431 ms, copy of the changed
// workspace 446 ms, copy back 1027 ms). The absolute times stay in the table for reference.
// Same run too: the other candidate, a content-addressed store written in Node (bench/cas-prototype.ts).
// Run: node --import tsx bench/checkpoint-bench.ts [--json FILE] [--files N --mb M]. Writes
// bench/CHECKPOINT-RESULTS.md (not with a smaller --files/--mb: a trial run).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitCheckpointStore } from '../src/host/node/checkpoints/git-checkpoint-store';
import { treeHashes } from '../test/unit/checkpoints/tree-hash';
import { CasPrototype } from './cas-prototype';
import { rng } from './events';
import { machineLines, prettierMarkdown, resultsTable, type Row } from './report';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const FILES = Number(arg('files') ?? 5000);
const TOTAL_MB = Number(arg('mb') ?? 200);
const TRIAL = FILES !== 5000 || TOTAL_MB !== 200;
const PER_DIR = 100;
const ROUNDS = 10;
/** C1, C2, C4 targets as ratios to the same run's copy baseline (see the header). */
const C1_TO_COPY = 7.0;
const C2_TO_COPY = 0.33;
const C4_TO_COPY_BACK = 1.0;
const CHANGED_PER_ROUND = 10;
const RESTORE_CHANGES = 100;
const CONV = 'bench';

const now = (): number => performance.now();
const ms = (n: number): string => `${n.toFixed(1)} ms`;
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MB`;
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** Text-like content (base64 lines) of `size` bytes: about as compressible as source code is not, on purpose. */
function content(size: number): Buffer {
  const b64 = randomBytes(Math.ceil((size * 3) / 4)).toString('base64');
  return Buffer.from(b64.replace(/(.{76})/g, '$1\n').slice(0, size));
}

function fileName(i: number): string {
  return path.join(
    `d${String(Math.floor(i / PER_DIR)).padStart(3, '0')}`,
    `f${String(i).padStart(5, '0')}.txt`,
  );
}

function generate(ws: string): number {
  const r = rng(42);
  const avg = (TOTAL_MB * 1024 * 1024) / FILES;
  let total = 0;
  for (let i = 0; i < FILES; i++) {
    const size = Math.max(1, Math.round(avg * (0.2 + 1.6 * r())));
    const p = path.join(ws, fileName(i));
    if (i % PER_DIR === 0) mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content(size));
    total += size;
  }
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n*.log\n');
  return total;
}

/**
 * Ignored files as a JavaScript project has them: node_modules of 30,000 files (300 packages of 100
 * files, 1 KB each), dist of 500 files (4 KB each) and a .env.local. Returns how many a checkpoint
 * holds within the default budget (dist and .env.local).
 */
function ignoredWorkload(ws: string): { held: number; label: string } {
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n*.log\ndist/\n.env.local\n');
  for (let p = 0; p < 300; p++) {
    const dir = path.join(ws, 'node_modules', `pkg${p}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `m${f}.js`), content(1024));
  }
  mkdirSync(path.join(ws, 'dist'));
  for (let f = 0; f < 500; f++) writeFileSync(path.join(ws, 'dist', `chunk${f}.js`), content(4096));
  writeFileSync(path.join(ws, '.env.local'), 'TOKEN=local\n');
  return { held: 502, label: 'node_modules 30,000 files' };
}

function folderBytes(dir: string): { bytes: number; blocks: number } {
  let bytes = 0;
  let blocks = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = lstatSync(p);
        bytes += st.size;
        blocks += st.blocks * 512;
      }
    }
  };
  walk(dir);
  return { bytes, blocks };
}

/** Rewrites `n` distinct files with new content of about the same size; returns the bytes written. */
function changeFiles(ws: string, pick: () => number, n: number): number {
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(Math.floor(pick() * FILES));
  let bytes = 0;
  for (const i of chosen) {
    const p = path.join(ws, fileName(i));
    const size = lstatSync(p).size;
    writeFileSync(p, content(size));
    bytes += size;
  }
  return bytes;
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  const started = now();
  const root = mkdtempSync(path.join(os.tmpdir(), 'logbook-ckpt-bench-'));
  const rows: Row[] = [];
  const json: Record<string, number> = {};
  try {
    const ws = path.join(root, 'ws');
    mkdirSync(ws);
    const genStart = now();
    const total = generate(ws);
    const genMs = now() - genStart;
    const workload = `${FILES} files / ${mb(total)}`;
    process.stdout.write(`generated ${workload} in ${(genMs / 1000).toFixed(1)} s\n`);

    // --- git store (the choice) ---------------------------------------------------------------
    const store = new GitCheckpointStore({ workspace: ws, storeDir: path.join(root, 'git-store') });
    let t = now();
    const first = await store.record({ conversationId: CONV, reason: 'action' });
    const firstMs = now() - t;
    const afterFirst = folderBytes(store.storeDir);
    if (first.files !== FILES + 1)
      throw new Error(`first checkpoint holds ${first.files} files, not ${FILES + 1}`);

    const pick = rng(7);
    const laterMs: number[] = [];
    let changedBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      changedBytes += changeFiles(ws, pick, CHANGED_PER_ROUND);
      t = now();
      const rec = await store.record({ conversationId: CONV, reason: 'action' });
      laterMs.push(now() - t);
      if (rec.filesChanged !== CHANGED_PER_ROUND)
        throw new Error(`round ${round}: ${rec.filesChanged} changed`);
    }
    const afterRounds = folderBytes(store.storeDir);
    const growth = afterRounds.bytes - afterFirst.bytes;
    const growthBlocks = afterRounds.blocks - afterFirst.blocks;

    // What one file-changing action costs in the agent loop: the files are recorded before it and
    // again when it finishes (its after-state, from which edits outside the agent are told apart).
    // The after-state hashes what the action changed, so the next checkpoint finds little to do.
    const stepMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      t = now();
      await store.record({ conversationId: CONV, reason: 'action', actionId: `a${round}` });
      const beforeMs = now() - t;
      changeFiles(ws, pick, CHANGED_PER_ROUND);
      t = now();
      await store.record({ conversationId: CONV, reason: 'after', actionId: `a${round}` });
      stepMs.push(beforeMs + (now() - t));
    }

    // Restore: 100 files changed since the checkpoint (60 rewritten, 20 deleted, 20 created).
    const base = await store.record({ conversationId: CONV, reason: 'action' });
    const expected = treeHashes(ws);
    changeFiles(ws, pick, 60);
    for (let i = 0, gone = 0; gone < 20; i++) {
      const p = path.join(ws, fileName(FILES - 1 - i * 7));
      rmSync(p, { force: true });
      gone++;
    }
    for (let i = 0; i < 20; i++) writeFileSync(path.join(ws, 'd000', `new${i}.txt`), content(40_000));
    t = now();
    const restored = await store.restore(base.id, CONV);
    const restoreMs = now() - t;
    if (restored.changes.length < RESTORE_CHANGES - 5)
      throw new Error(`restore changed ${restored.changes.length}`);
    const same = JSON.stringify([...treeHashes(ws)]) === JSON.stringify([...expected]);
    if (!same) throw new Error('the restored workspace differs from the checkpoint');

    // --- baseline: a copy of the workspace per checkpoint ------------------------------------
    const copies = path.join(root, 'copies');
    mkdirSync(copies);
    t = now();
    cpSync(ws, path.join(copies, '1'), { recursive: true });
    const copyMs = now() - t;
    changeFiles(ws, pick, CHANGED_PER_ROUND);
    t = now();
    cpSync(ws, path.join(copies, '2'), { recursive: true });
    const copyLaterMs = now() - t;
    const copyGrowth = folderBytes(path.join(copies, '2')).bytes;
    t = now();
    for (const e of readdirSync(ws)) rmSync(path.join(ws, e), { recursive: true, force: true });
    cpSync(path.join(copies, '1'), ws, { recursive: true });
    const copyRestoreMs = now() - t;
    rmSync(copies, { recursive: true, force: true });

    // --- the other candidate: a content-addressed store in Node -------------------------------
    const cas = new CasPrototype(ws, path.join(root, 'cas'));
    t = now();
    cas.record();
    const casFirstMs = now() - t;
    const casAfterFirst = folderBytes(path.join(root, 'cas')).bytes;
    const casLater: number[] = [];
    let casChanged = 0;
    for (let round = 0; round < ROUNDS; round++) {
      casChanged += changeFiles(ws, pick, CHANGED_PER_ROUND);
      t = now();
      cas.record();
      casLater.push(now() - t);
    }
    const casGrowth = folderBytes(path.join(root, 'cas')).bytes - casAfterFirst;

    // What starting one git process costs in this run: a later checkpoint starts four in a row.
    const spawnMs: number[] = [];
    for (let i = 0; i < 10; i++) {
      t = now();
      execFileSync('git', ['--version']);
      spawnMs.push(now() - t);
    }
    // --- ignored files: held within the budget, and the coverage check before each action ------
    // A dependency folder far over the budget (30,000 files), a build folder and a .env.local that
    // fit in it. The first checkpoint after they appear holds dist and .env.local (hashing them
    // once); later ones find them unchanged by stat; coverage() names node_modules/ once.
    await store.record({ conversationId: CONV, reason: 'action' }); // what the parts above changed
    const extra = ignoredWorkload(ws);
    t = now();
    const withIgnored = await store.record({ conversationId: CONV, reason: 'action' });
    const ignoredFirstMs = now() - t;
    if (withIgnored.filesChanged !== extra.held)
      throw new Error(`the checkpoint took in ${withIgnored.filesChanged} ignored files, not ${extra.held}`);
    const beforeIgnoredRounds = folderBytes(store.storeDir).bytes;
    const ignoredLaterMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      changeFiles(ws, pick, CHANGED_PER_ROUND);
      t = now();
      await store.record({ conversationId: CONV, reason: 'action' });
      ignoredLaterMs.push(now() - t);
    }
    const ignoredGrowth = folderBytes(store.storeDir).bytes - beforeIgnoredRounds;
    const coverageMs: number[] = [];
    let overBudget = '';
    for (let round = 0; round < ROUNDS; round++) {
      t = now();
      const cov = await store.coverage();
      coverageMs.push(now() - t);
      overBudget = (cov?.unheld ?? []).map((u) => `${path.relative(ws, u.path)}/ ${u.why}`).join(', ');
    }
    if (overBudget !== 'node_modules/ over-budget') throw new Error(`coverage said: ${overBudget}`);

    const later = median(laterMs);
    const ratio = growth / changedBytes;
    Object.assign(json, {
      first_ms: firstMs,
      later_median_ms: later,
      later_max_ms: Math.max(...laterMs),
      step_with_after_median_ms: median(stepMs),
      git_spawn_ms: median(spawnMs),
      growth_ratio: ratio,
      restore_ms: restoreMs,
      copy_first_ms: copyMs,
      copy_later_ms: copyLaterMs,
      copy_restore_ms: copyRestoreMs,
      cas_first_ms: casFirstMs,
      cas_later_median_ms: median(casLater),
      cas_growth_ratio: casGrowth / casChanged,
      ignored_first_ms: ignoredFirstMs,
      ignored_later_median_ms: median(ignoredLaterMs),
      coverage_first_ms: coverageMs[0]!,
      coverage_median_ms: median(coverageMs),
    });
    const W = workload;
    rows.push(
      {
        workload: W,
        metric: 'C1 first checkpoint (empty store): git store (quiet-machine target ≤ 3000 ms)',
        value: `${ms(firstMs)}${firstMs <= 3000 ? '' : ' (over 3000 ms)'}`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C1 baseline: copy of the workspace',
        value: ms(copyMs),
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C1 first checkpoint ÷ copy of the workspace, same run',
        value: `${(firstMs / copyMs).toFixed(2)}×`,
        target: `≤ ${C1_TO_COPY.toFixed(1)}×`,
        pass: firstMs / copyMs <= C1_TO_COPY,
      },
      {
        workload: W,
        metric: 'C1 other candidate: content-addressed store in Node',
        value: `${ms(casFirstMs)} (git ÷ cas: ${(firstMs / casFirstMs).toFixed(2)}×)`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'first checkpoint store size (git; stored without zlib)',
        value: `${mb(afterFirst.bytes)} (${mb(afterFirst.blocks)} on disk) for ${mb(total)} of files`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: `C2 later checkpoint, ${CHANGED_PER_ROUND} files changed: git store, median of ${ROUNDS} (max)`,
        value: `${ms(later)} (${ms(Math.max(...laterMs))}); runs ${laterMs.map((x) => x.toFixed(0)).join(' / ')}${later <= 150 ? '' : '; over the quiet-machine 150 ms'}`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: `C2 per file-changing action, its after-state included (checkpoint before + after-state of ${CHANGED_PER_ROUND} changed files), median of ${ROUNDS}`,
        value: `${ms(median(stepMs))} (${(median(stepMs) / copyLaterMs).toFixed(3)}× the copy)`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric:
          'starting one git process in this run (git --version, median of 10); a later checkpoint starts 4 in a row',
        value: ms(median(spawnMs)),
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C2 baseline: copy of the workspace',
        value: ms(copyLaterMs),
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C2 later checkpoint (median) ÷ copy of the workspace, same run',
        value: `${(later / copyLaterMs).toFixed(3)}×`,
        target: `≤ ${C2_TO_COPY.toFixed(2)}×`,
        pass: later / copyLaterMs <= C2_TO_COPY,
      },
      {
        workload: W,
        metric: 'C2 other candidate: content-addressed store in Node, median',
        value: `${ms(median(casLater))} (git ÷ cas: ${(later / median(casLater)).toFixed(2)}×)`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: `C3 storage growth over ${ROUNDS} checkpoints ÷ bytes of the changed files`,
        value: `${ratio.toFixed(3)}× (${mb(growth)} for ${mb(changedBytes)}; on disk ${mb(growthBlocks)})`,
        target: '≤ 1.2×',
        pass: ratio <= 1.2,
      },
      {
        workload: W,
        metric: 'C3 baseline: copy per checkpoint, growth ÷ bytes changed',
        value: `${(copyGrowth / (changedBytes / ROUNDS)).toFixed(0)}× (${mb(copyGrowth)} per checkpoint)`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C3 other candidate: content-addressed store, growth ÷ bytes changed',
        value: `${(casGrowth / casChanged).toFixed(3)}× (uncompressed)`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: `C4 restore of ${restored.changes.length} changed files (60 rewritten, 20 deleted, 20 created), state before recorded first; tree verified`,
        value: `${ms(restoreMs)}${restoreMs <= 1000 ? '' : ' (over the quiet-machine 1000 ms)'}`,
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C4 baseline: delete the workspace, copy the checkpoint back',
        value: ms(copyRestoreMs),
        target: '',
        pass: null,
      },
      {
        workload: W,
        metric: 'C4 restore ÷ copying the workspace back, same run',
        value: `${(restoreMs / copyRestoreMs).toFixed(2)}×`,
        target: `≤ ${C4_TO_COPY_BACK.toFixed(1)}×`,
        pass: restoreMs / copyRestoreMs <= C4_TO_COPY_BACK,
      },
      {
        workload: `${W} + ${extra.label}`,
        metric: `C5 first checkpoint after the ignored files appear: holds ${extra.held} of them (dist, .env.local), node_modules over the budget`,
        value: ms(ignoredFirstMs),
        target: '',
        pass: null,
      },
      {
        workload: `${W} + ${extra.label}`,
        metric: `C5 later checkpoint, ${CHANGED_PER_ROUND} files changed, ignored files held and unchanged: median of ${ROUNDS} (without them: C2)`,
        value: `${ms(median(ignoredLaterMs))} (C2 ${ms(later)}); storage growth ${mb(ignoredGrowth)}`,
        target: '',
        pass: null,
      },
      {
        workload: `${W} + ${extra.label}`,
        metric: `C5 coverage() before an action: first call (walks node_modules up to the budget) / median of ${ROUNDS} (its verdict kept while the folder's mtime stays)`,
        value: `${ms(coverageMs[0]!)} / ${ms(median(coverageMs))}; unheld: ${overBudget}`,
        target: '',
        pass: null,
      },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const table = resultsTable(rows);
  process.stdout.write(`\n${table}\n`);
  const doc = [
    '# Workspace checkpoint benchmark results',
    '',
    'Generated by `node --import tsx bench/checkpoint-bench.ts` (bench/checkpoint-bench.ts, part of',
    '`npm run bench`). Every ratio compares numbers measured in the same run on the same machine. Do not',
    'edit by hand; rerun the bench. The choice these numbers support: src/core/checkpoints/DESIGN.md.',
    '',
    ...machineLines({
      loadAtStart,
      wallMs: now() - started,
      extra: [`os: ${os.type()} ${os.release()}`, `date: ${new Date().toISOString()}`],
    }),
    '',
    '## Results',
    '',
    table,
    '',
  ].join('\n');
  const mdFile = path.join(__dirname, 'CHECKPOINT-RESULTS.md');
  if (!TRIAL) writeFileSync(mdFile, await prettierMarkdown(mdFile, doc));
  const jsonFile = arg('json');
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(json, null, 2) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
