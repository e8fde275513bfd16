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
  /**
   * User + system CPU time of the process and the children it waited for, in ms (bash's `times`:
   * GNU time prints it in 10 ms steps, too coarse for a ratio of two ~150 ms runs).
   */
  cpuMs: number;
  /** The process's own peak RSS (GNU time), not time's. */
  maxRssMB: number;
  stdout: string;
}

/**
 * `node args…` under GNU time (its peak RSS) under bash, whose `times` then prints the CPU time of
 * the children it waited for to the millisecond: time and node (time's own is a fraction of one).
 */
function measuredCommand(args: string[]): [string, string[]] {
  const script = '"$@"; status=$?; times >&2; exit $status';
  return ['bash', ['-c', script, 'bash', '/usr/bin/time', '-f', '%M', process.execPath, ...args]];
}

function parseTime(stderr: string): { cpuMs: number; maxRssMB: number } {
  const lines = stderr.trim().split('\n');
  const seconds = (text: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(text);
    if (!m) throw new Error(`not a time from bash's times: ${text}`);
    return Number(m[1]) * 60 + Number(m[2]);
  };
  const [user, sys] = lines.at(-1)!.split(' ').map(seconds);
  const kb = Number(lines.at(-3));
  return { cpuMs: (user! + sys!) * 1000, maxRssMB: kb / 1024 };
}

/** `node args…` run to its end, measured; throws when it fails. */
export function timedSync(args: string[]): ProcessRun {
  const t0 = now();
  const [command, argv] = measuredCommand(args);
  const r = spawnSync(command, argv, { encoding: 'utf8' });
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
  const [command, argv] = measuredCommand(args);
  const child = spawn(command, argv, {
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
