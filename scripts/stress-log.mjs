#!/usr/bin/env node
// Crash stress for the segment log: many SIGKILL trials (default 200) of test/support/crash-child.ts,
// checking after each that every acknowledged append survived and the log opens whole.
//   node scripts/stress-log.mjs [--trials N] [--lanes L] [--seed S]
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The TypeScript sources are CommonJS-flavoured (no "type": "module"), so tsx needs both hooks.
registerEsm();
registerCjs();
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const harness = await import(pathToFileURL(path.join(root, 'test', 'unit', 'log', 'crash-harness.ts')).href);
// a CommonJS module imported from ESM: its exports may sit under `default`
const crashTrial = harness.crashTrial ?? harness.default?.crashTrial;

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const trials = arg('trials', 200);
const lanes = arg('lanes', 2);
const seed0 = arg('seed', Date.now() >>> 0);
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-stress-'));

let done = 0;
let failed = 0;
const stats = { acked: 0, durable: 0, tornTails: 0, truncatedBytes: 0, duringStartup: 0, maxLength: 0 };
const t0 = Date.now();

async function lane(l) {
  let dir;
  for (let t = l; t < trials; t += lanes) {
    if (t % (10 * lanes) === l) dir = fs.mkdtempSync(path.join(base, `lane${l}-`)); // a fresh log every 10 trials
    const seed = (seed0 + t) >>> 0;
    const duringStartup = t % 8 === 7;
    const killMs = duringStartup ? 250 + (seed % 600) : 5 + (((seed * 2654435761) >>> 0) % 400);
    try {
      const r = await crashTrial(dir, seed, killMs, duringStartup);
      stats.acked += r.acked;
      stats.durable += r.durableAcked;
      if (r.truncatedBytes > 0) stats.tornTails++;
      stats.truncatedBytes += r.truncatedBytes;
      if (r.killedBeforeOpen) stats.duringStartup++;
      stats.maxLength = Math.max(stats.maxLength, r.lengthAfter);
    } catch (err) {
      failed++;
      console.error(
        `FAIL trial ${t} (seed ${seed}, kill ${killMs} ms${duringStartup ? ' from spawn' : ''}): ${err}`,
      );
    }
    done++;
    if (done % 20 === 0)
      console.log(`${done}/${trials} trials, ${failed} failed, ${stats.acked} acks checked`);
  }
}

await Promise.all(Array.from({ length: lanes }, (_, l) => lane(l)));
fs.rmSync(base, { recursive: true, force: true });
console.log(
  `\n${done} trials in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${failed} failed; ` +
    `${stats.acked} acknowledged appends checked (${stats.durable} durable); ` +
    `${stats.tornTails} reopens cut a torn tail (${stats.truncatedBytes} bytes); ` +
    `${stats.duringStartup} kills before the child had opened; longest log ${stats.maxLength} events`,
);
process.exit(failed > 0 ? 1 : 0);
