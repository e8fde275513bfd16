// One crash trial: run test/support/crash-child.ts on a log, SIGKILL it at a random moment,
// reopen, and check that every acknowledged append is there and the log is whole.
// Used by crash.test.ts (a few dozen trials) and scripts/stress-log.mjs (hundreds).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SegmentEventStore, isCorruptRecord } from '../../../src/core/log';

const root = path.resolve(__dirname, '..', '..', '..');
const childScript = path.join(root, 'test', 'support', 'crash-child.ts');

export interface TrialResult {
  acked: number;
  durableAcked: number;
  lengthAfter: number;
  truncatedBytes: number;
  killedAfterMs: number;
  killedBeforeOpen: boolean;
}

/** Kills the child `killMs` after it printed "open" (or after spawn when `duringStartup`). */
export async function crashTrial(
  dir: string,
  seed: number,
  killMs: number,
  duringStartup = false,
): Promise<TrialResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, dir, String(seed)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: { index: number; id: string; durable: boolean }[] = [];
  let stderr = '';
  let opened = false;
  let buf = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const kill = () => child.kill('SIGKILL');
  if (duringStartup) timer = setTimeout(kill, killMs);
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).split(' ');
      buf = buf.slice(nl + 1);
      if (line[0] === 'open' && !opened) {
        opened = true;
        if (!duringStartup) timer = setTimeout(kill, killMs);
      } else if (line[0] === 'ack') {
        acks.push({ index: Number(line[1]), id: line[2]!, durable: line[3] === 'd' });
      }
    }
  });
  const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  clearTimeout(timer);
  if (exit.signal !== 'SIGKILL') {
    throw new Error(`crash child ended by itself (code ${exit.code}, signal ${exit.signal}): ${stderr}`);
  }

  const store = await SegmentEventStore.open(dir);
  try {
    if (store.readOnly) throw new Error(`reopen after the kill is read-only: ${store.lockHeldBy}`);
    if (store.openReport.quarantined.length > 0) {
      throw new Error(
        `a process crash must only tear the tail, got ${JSON.stringify(store.openReport.quarantined)}`,
      );
    }
    const maxAck = acks.reduce((m, a) => Math.max(m, a.index), -1);
    if (store.length <= maxAck) {
      throw new Error(`acknowledged index ${maxAck} lost: length after reopen is ${store.length}`);
    }
    const from = acks.length > 0 ? Math.min(...acks.map((a) => a.index)) : Math.max(0, store.length - 50);
    const records = await store.slice(Math.max(0, from - 1));
    const base = Math.max(0, from - 1);
    const seen = new Set<string>();
    records.forEach((e, k) => {
      if (isCorruptRecord(e)) throw new Error(`slot ${base + k} unreadable after a crash: ${e.reason}`);
      if (seen.has(e.id)) throw new Error(`duplicate id ${e.id}`);
      seen.add(e.id);
      if (k > 0 && e.parent_id !== records[k - 1]!.id) throw new Error(`broken parent chain at ${base + k}`);
    });
    for (const a of acks) {
      const got = records[a.index - base];
      if (got?.id !== a.id) {
        throw new Error(
          `${a.durable ? 'durable' : 'ordinary'} ack ${a.index} ${a.id} missing (found ${got?.id})`,
        );
      }
    }
    // The ids must be findable by id too (id index caught up after the crash).
    if (acks.length > 0) {
      const a = acks[Math.floor(acks.length / 2)]!;
      if ((await store.indexOf(a.id)) !== a.index) throw new Error(`indexOf(${a.id}) wrong after reopen`);
    }
    return {
      acked: acks.length,
      durableAcked: acks.filter((a) => a.durable).length,
      lengthAfter: store.length,
      truncatedBytes: store.openReport.truncatedBytes,
      killedAfterMs: killMs,
      killedBeforeOpen: !opened,
    };
  } finally {
    await store.close();
  }
}
