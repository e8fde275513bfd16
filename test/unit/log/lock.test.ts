// Single-writer lock: contention, stale takeover, and races between processes taking over.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SegmentEventStore, acquireLock, isProcessAlive, liveWriter } from '../../../src/core/log';
import { cleanupTmp, ev, repoRoot, tmpDir } from './helpers';

const child = path.join(__dirname, 'lock-child.ts');

function startChild(
  dir: string,
  holdMs: number,
  startAt?: number,
  holder?: string,
): { proc: ChildProcess; first: Promise<Record<string, unknown>> } {
  const args = [
    '--import',
    'tsx',
    child,
    dir,
    String(holdMs),
    ...(startAt || holder ? [String(startAt ?? 0)] : []),
    ...(holder ? [holder] : []),
  ];
  const proc = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = new Promise<Record<string, unknown>>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
    });
    proc.on('exit', (code) => reject(new Error(`lock child exited (${code}) before reporting`)));
  });
  return { proc, first };
}

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const pid = Number(r.stdout.toString());
  assert.ok(pid > 0 && !isProcessAlive(pid));
  return pid;
}

function writeLock(dir: string, info: Record<string, unknown>): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'LOCK'), JSON.stringify(info));
}

describe('single-writer lock', function () {
  this.timeout(30_000);
  afterEach(() => cleanupTmp());

  it('refuses a second holder in the same process until released', () => {
    const dir = tmpDir('lock');
    const a = acquireLock(dir);
    assert.ok(a.acquired);
    const b = acquireLock(dir);
    assert.equal(b.acquired, false);
    if (!b.acquired) assert.match(b.message, new RegExp(`pid ${process.pid} on ${os.hostname()}`));
    a.lock.release();
    const c = acquireLock(dir);
    assert.ok(c.acquired);
    c.lock.release();
    assert.equal(fs.existsSync(path.join(dir, 'LOCK')), false);
  });

  it('a live process elsewhere keeps the lock; once it dies the lock is taken over', async () => {
    const dir = tmpDir('lock');
    const { proc, first } = startChild(dir, 60_000);
    try {
      const got = await first;
      assert.equal(got.acquired, true);
      const r = acquireLock(dir);
      assert.equal(r.acquired, false);
      if (!r.acquired) {
        assert.equal(r.heldBy?.pid, proc.pid);
        assert.match(r.message, new RegExp(`pid ${proc.pid}`));
      }
      const s = await SegmentEventStore.open(dir);
      assert.equal(s.readOnly, true);
      await assert.rejects(s.append(ev('x')), /read-only.*pid/);
      await s.close();
    } finally {
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    }
    const s = await SegmentEventStore.open(dir);
    assert.equal(s.readOnly, false);
    assert.equal(s.openReport.tookOverStaleLock?.pid, proc.pid);
    await s.append(ev('x'));
    await s.close();
  });

  it('names its holder to readers, and liveWriter says when that writer is gone', async () => {
    const dir = tmpDir('lock');
    const holder = 'the editor window on "ws" opened at 07:42';
    const { proc, first } = startChild(dir, 60_000, undefined, holder);
    try {
      assert.equal((await first).acquired, true);
      assert.equal(liveWriter(dir)?.holder, holder);
      assert.equal(liveWriter(dir)?.pid, proc.pid);
      const s = await SegmentEventStore.open(dir, { lockHolder: 'a reader' });
      assert.equal(s.readOnly, true);
      assert.ok(s.lockHeldBy?.includes(holder), s.lockHeldBy ?? '');
      await s.close();
    } finally {
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
    }
    // Killed: its lock file stays behind, but no live process holds it.
    assert.ok(fs.existsSync(path.join(dir, 'LOCK')));
    assert.equal(liveWriter(dir), null);
    const w = await SegmentEventStore.open(dir, { lockHolder: 'the next window' });
    assert.equal(w.readOnly, false);
    assert.equal(liveWriter(dir)?.holder, 'the next window');
    await w.close();
    assert.equal(liveWriter(dir), null);
  });

  it('takes over a lock whose pid is dead on this host', () => {
    const dir = tmpDir('lock');
    const pid = deadPid();
    writeLock(dir, { pid, hostname: os.hostname(), startedAt: 'then', token: 'old' });
    const r = acquireLock(dir);
    assert.ok(r.acquired);
    assert.equal(r.lock.tookOver?.pid, pid);
    const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'LOCK'), 'utf8')) as { pid: number };
    assert.equal(onDisk.pid, process.pid);
    r.lock.release();
  });

  it('never assumes a lock from another host is stale', () => {
    const dir = tmpDir('lock');
    writeLock(dir, { pid: deadPid(), hostname: 'some-other-host', startedAt: 'then', token: 't' });
    const r = acquireLock(dir);
    assert.equal(r.acquired, false);
    if (!r.acquired) assert.match(r.message, /some-other-host/);
  });

  it('treats an unreadable lock file, or our pid with a token we do not hold, as stale', () => {
    const dir = tmpDir('lock');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'LOCK'), '{not json');
    const a = acquireLock(dir);
    assert.ok(a.acquired);
    a.lock.release();
    writeLock(dir, { pid: process.pid, hostname: os.hostname(), startedAt: 'then', token: 'not-ours' });
    const b = acquireLock(dir);
    assert.ok(b.acquired);
    b.lock.release();
  });

  it('when several processes race to take over a stale lock, exactly one wins', async () => {
    const dir = tmpDir('lock');
    writeLock(dir, { pid: deadPid(), hostname: os.hostname(), startedAt: 'then', token: 'stale' });
    const startAt = Date.now() + 2500; // after every child has started up
    const kids = Array.from({ length: 5 }, () => startChild(dir, 1500, startAt));
    const results = await Promise.all(kids.map((k) => k.first));
    await Promise.all(kids.map((k) => new Promise((r) => k.proc.once('exit', r))));
    const winners = results.filter((r) => r.acquired === true);
    assert.equal(winners.length, 1, JSON.stringify(results));
    for (const r of results.filter((x) => x.acquired !== true)) {
      assert.equal((r.heldBy as { pid?: number } | null)?.pid, winners[0]!.pid);
    }
  });
});
