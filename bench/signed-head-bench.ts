// The cost of keeping a conversation's signed head outside its folder (core/signing/head-record.ts):
// durable appends alternating event by event between an unsigned store, a signed one without a
// head file and a signed one with it (the same events, each store in its own directory), so drift in
// the disk's fdatasync latency hits all three alike; then ordinary appends, signed with and without.
// Run: node --import tsx bench/signed-head-bench.ts [durable events] [rounds]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SegmentEventStore } from '../src/core/log';
import { identityFromPem, newSigningKeyPem, openSignedStore } from '../src/core/signing';
import { type BenchEvent, generateEvents } from './events';

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-head-bench-'));
const identity = identityFromPem(newSigningKeyPem());
const { events } = generateEvents(N);

type Store = { append(e: BenchEvent, o?: { durable?: boolean }): Promise<number>; close(): Promise<void> };
const open = {
  unsigned: (d: string): Promise<Store> => SegmentEventStore.open<BenchEvent>(d),
  signed: (d: string): Promise<Store> => openSignedStore<BenchEvent>(d, { identity }),
  'signed+head': (d: string): Promise<Store> =>
    openSignedStore<BenchEvent>(d, {
      identity,
      headFile: path.join(work, 'heads', `${path.basename(d)}.json`),
    }),
};
type Kind = keyof typeof open;
const kinds = Object.keys(open) as Kind[];

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function durableRound(r: number): Promise<Record<Kind, number>> {
  const stores = {} as Record<Kind, Store>;
  const times = {} as Record<Kind, number[]>;
  for (const k of kinds) {
    stores[k] = await open[k](path.join(work, `d${r}-${k.replace('+', '-')}`));
    times[k] = [];
  }
  for (let i = 0; i < events.length; i++) {
    // A different store goes first on each event.
    for (let j = 0; j < kinds.length; j++) {
      const k = kinds[(i + j) % kinds.length]!;
      const t = performance.now();
      await stores[k].append(events[i]!, { durable: true });
      times[k].push(performance.now() - t);
    }
  }
  for (const k of kinds) await stores[k].close();
  return Object.fromEntries(kinds.map((k) => [k, p50(times[k])])) as Record<Kind, number>;
}

async function ordinaryEps(k: Kind, r: number): Promise<number> {
  const store = await open[k](path.join(work, `o${r}-${k.replace('+', '-')}`));
  const t = performance.now();
  for (const e of events) await store.append(e);
  await store.close();
  return events.length / ((performance.now() - t) / 1000);
}

async function main(): Promise<void> {
  console.log(`${N} events, ${ROUNDS} rounds, load ${os.loadavg()[0]!.toFixed(1)}`);
  for (let r = 0; r < ROUNDS; r++) {
    const d = await durableRound(r);
    const ratio = (k: Kind): string => (d[k] / d.unsigned).toFixed(3);
    console.log(
      `durable p50 ms: unsigned ${d.unsigned.toFixed(3)}, signed ${d.signed.toFixed(3)} (${ratio('signed')}×), ` +
        `signed+head ${d['signed+head'].toFixed(3)} (${ratio('signed+head')}×)`,
    );
    const o = {} as Record<Kind, number>;
    for (const k of r % 2 ? [...kinds].reverse() : kinds) o[k] = await ordinaryEps(k, r);
    console.log(
      `ordinary events/s: unsigned ${o.unsigned.toFixed(0)}, signed ${o.signed.toFixed(0)}, ` +
        `signed+head ${o['signed+head'].toFixed(0)} (${(o['signed+head'] / o.signed).toFixed(3)}× signed)`,
    );
  }
  const heads = fs.readdirSync(path.join(work, 'heads'));
  console.log(`head files written: ${heads.length}`);
  fs.rmSync(work, { recursive: true, force: true });
}

void main();
