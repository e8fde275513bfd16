// What the process benchmarks (open, continue) share: number formats, the median, and a whole
// process measured as a user meets it: wall time from spawn to exit, CPU time and peak RSS.
import { spawn, spawnSync } from 'node:child_process';

export const now = () => performance.now();
export const log = (s: string) => process.stderr.write(s + '\n');
export const f0 = (x: number) => x.toFixed(0);
export const f1 = (x: number) => x.toFixed(1);
export const f2 = (x: number) => x.toFixed(2);
export const int = (x: number) => Math.round(x).toLocaleString('en-US');
export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** Each run's value, in the order measured. */
export const runs = (xs: readonly number[], f: (x: number) => string) => xs.map(f).join(' / ');

export interface ProcessRun {
  /** From spawn to exit in this process, so Node's start and exit are included. */
  ms: number;
  /** User + system CPU time of the process and the children it waited for (GNU time). */
  cpuMs: number;
  /** The process's own peak RSS (GNU time), not time's. */
  maxRssMB: number;
  stdout: string;
}

const TIME_FORMAT = ['-f', '%U %S %M'];

function parseTime(stderr: string): { cpuMs: number; maxRssMB: number } {
  const [user, sys, kb] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { cpuMs: (user! + sys!) * 1000, maxRssMB: kb! / 1024 };
}

/** `node args…` run to its end, measured; throws when it fails. */
export function timedSync(args: string[]): ProcessRun {
  const t0 = now();
  const r = spawnSync('/usr/bin/time', [...TIME_FORMAT, process.execPath, ...args], { encoding: 'utf8' });
  const ms = now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, ...parseTime(r.stderr), stdout: r.stdout };
}

/**
 * The same, without blocking this process's event loop (a scripted model answering from it); its
 * stdout is not kept.
 */
export function timed(args: string[], env: Record<string, string> = {}): Promise<ProcessRun> {
  const t0 = now();
  const child = spawn('/usr/bin/time', [...TIME_FORMAT, process.execPath, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      const ms = now() - t0;
      if (status !== 0) return reject(new Error(`${args.join(' ')} failed (${status}): ${stderr}`));
      resolve({ ms, ...parseTime(stderr), stdout: '' });
    });
  });
}
