// The sandbox probe's verdict kept between processes. Starting a real sandbox is the only reliable
// test that one can start (sandbox-probe.ts), and it costs each `logbook run` tens to hundreds of
// milliseconds on a busy machine. Only a verdict that a full sandbox starts (socket filter
// included) is kept: reading a stale one can only make commands fail to start in a sandbox that
// no longer works, never run them without one, so a forged or stale file cannot weaken the
// boundary. It holds for as long as everything the probe's outcome depends on reads the same:
// the bwrap and bash binaries (path, inode, size, times, mode, owner), the kernel and this boot,
// the user-namespace and AppArmor settings, the user and namespace this process runs in, the
// architecture and the socket filter program; and for a day at most.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SandboxAvailability, findExecutable, probeSandbox } from './sandbox-probe';
import { hostIds, unixSocketFilter } from './unix-socket-filter';

/** How long a kept verdict is trusted at most, whatever else reads the same. */
export const PROBE_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** The settings a namespace or AppArmor change shows up in (absent ones read as missing). */
const SETTINGS = [
  'kernel/unprivileged_userns_clone',
  'user/max_user_namespaces',
  'kernel/apparmor_restrict_unprivileged_userns',
  'kernel/apparmor_restrict_unprivileged_unconfined',
  'kernel/seccomp/actions_avail',
  'kernel/random/boot_id',
];

interface Kept {
  key: string;
  at: number;
  bwrap: string;
  version: string;
}

function fileIdentity(p: string): string {
  try {
    const real = fs.realpathSync(p);
    const s = fs.statSync(real, { bigint: true });
    return [real, s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, s.mode, s.uid].join(':');
  } catch {
    return `${p}:missing`;
  }
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '-';
  }
}

function link(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '-';
  }
}

/**
 * What the probe's outcome for `bwrap` depends on, hashed: equal keys mean the probe would be run
 * on the same binaries, kernel, settings and user.
 */
export function probeKey(bwrap: string): string {
  const ids = hostIds();
  const parts = [
    'bwrap',
    fileIdentity(bwrap),
    'bash',
    fileIdentity('/bin/bash'),
    'kernel',
    os.release(),
    os.version(),
    ...SETTINGS.map((s) => `${s}=${read(`/proc/sys/${s}`)}`),
    `ids=${ids.uid}:${ids.gid}`,
    `userns=${link('/proc/self/ns/user')}`,
    `arch=${process.arch}`,
    `filter=${crypto.hash('sha256', unixSocketFilter(), 'hex')}`,
  ];
  return crypto.hash('sha256', parts.join('\n'), 'hex');
}

function readKept(file: string): Kept | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Kept>;
    if (
      typeof v.key === 'string' &&
      typeof v.at === 'number' &&
      typeof v.bwrap === 'string' &&
      typeof v.version === 'string'
    )
      return v as Kept;
  } catch {
    // none, unreadable or not ours: probe again
  }
  return undefined;
}

function writeKept(file: string, kept: Kept): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, JSON.stringify(kept) + '\n', { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    // Not kept: the next process probes again.
  }
}

/**
 * The probe's verdict for `bwrapPath` (default: the first `bwrap` on PATH), read from `file` when
 * a full sandbox was found there under the same key within the last day, else probed (and kept in
 * `file` when a full sandbox starts; a verdict short of one removes what was kept). `probe` is the
 * real probe but for tests.
 */
export function probeWithCache(
  file: string,
  bwrapPath?: string,
  probe: (bwrap?: string) => SandboxAvailability = probeSandbox,
  now: number = Date.now(),
  /** Probe even when a verdict is kept (a diagnosis wants the machine as it is now), keeping the new one. */
  fresh = false,
): SandboxAvailability {
  if (process.platform !== 'linux') return probe(bwrapPath);
  const bwrap = bwrapPath ?? findExecutable('bwrap');
  if (!bwrap) return probe(bwrapPath);
  const key = probeKey(bwrap);
  const kept = fresh ? undefined : readKept(file);
  if (
    kept &&
    kept.key === key &&
    kept.bwrap === bwrap &&
    now - kept.at >= 0 &&
    now - kept.at < PROBE_CACHE_MAX_AGE_MS
  )
    return { available: true, bwrap: kept.bwrap, version: kept.version };
  const found = probe(bwrapPath);
  if (found.available && !found.socketFilterMissing && found.bwrap === bwrap)
    writeKept(file, { key, at: now, bwrap: found.bwrap, version: found.version });
  else if (kept || fresh) fs.rmSync(file, { force: true });
  return found;
}
