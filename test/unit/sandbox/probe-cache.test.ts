// The sandbox probe's verdict kept between processes: a full sandbox found once is not probed again
// while the binaries, kernel and settings read the same; nothing else is ever kept or trusted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROBE_CACHE_MAX_AGE_MS, probeKey, probeWithCache } from '../../../src/host/node/sandbox/probe-cache';
import {
  CommandSandbox,
  findExecutable,
  probeSandbox,
  type SandboxAvailability,
} from '../../../src/host/node/sandbox';

describe('sandbox: the probe verdict kept between runs', () => {
  let root: string;
  let file: string;
  let bwrap: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'logbook-probe-cache-'));
    file = path.join(root, 'config', 'sandbox-probe.json');
    // A bwrap of this test's own: its identity is the test's to change.
    bwrap = path.join(root, 'bin', 'bwrap');
    fs.mkdirSync(path.dirname(bwrap));
    fs.copyFileSync(findExecutable('bwrap')!, bwrap);
    fs.chmodSync(bwrap, 0o755);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The real probe, counted. */
  function counted(): { probe: (b?: string) => SandboxAvailability; calls: () => number } {
    let n = 0;
    return {
      probe: (b) => {
        n++;
        return probeSandbox(b);
      },
      calls: () => n,
    };
  }

  it('probes once, keeps a full sandbox in a file only the user reads, and answers the same from it', () => {
    const c = counted();
    const first = probeWithCache(file, bwrap, c.probe);
    assert.equal(first.available, true, JSON.stringify(first));
    assert.equal('socketFilterMissing' in first, false);
    assert.equal(c.calls(), 1);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const second = probeWithCache(file, bwrap, c.probe);
    assert.equal(c.calls(), 1, 'the kept verdict answered');
    assert.deepEqual(second, { available: true, bwrap, version: (first as { version: string }).version });
  });

  it('probes again when the bwrap binary changes (new times, another copy)', () => {
    const c = counted();
    probeWithCache(file, bwrap, c.probe);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(bwrap, later, later);
    probeWithCache(file, bwrap, c.probe);
    assert.equal(c.calls(), 2, 'a touched binary is probed');
    const other = path.join(root, 'bin', 'bwrap-2');
    fs.copyFileSync(bwrap, other);
    fs.chmodSync(other, 0o755);
    probeWithCache(file, other, c.probe);
    assert.equal(c.calls(), 3, 'another binary is probed');
  });

  it('probes again after a day, and when the file is not one it wrote', () => {
    const c = counted();
    const t0 = Date.now();
    probeWithCache(file, bwrap, c.probe, t0);
    probeWithCache(file, bwrap, c.probe, t0 + PROBE_CACHE_MAX_AGE_MS - 1);
    assert.equal(c.calls(), 1);
    probeWithCache(file, bwrap, c.probe, t0 + PROBE_CACHE_MAX_AGE_MS);
    assert.equal(c.calls(), 2, 'a day old');
    for (const text of [
      'not json',
      '{}',
      JSON.stringify({ key: 'x'.repeat(64), at: t0, bwrap, version: 'v' }),
    ]) {
      fs.writeFileSync(file, text);
      probeWithCache(file, bwrap, c.probe);
    }
    assert.equal(c.calls(), 5, 'garbage, a partial entry and another key are all probed again');
  });

  it('never keeps a verdict short of a full sandbox, so none can stand in for a probe that fails', () => {
    let n = 0;
    const unavailable: SandboxAvailability = {
      available: false,
      problem: 'no namespaces',
      fix: 'allow them',
      say: () => ({ problem: 'no namespaces', fix: 'allow them' }),
    };
    const none = (): SandboxAvailability => (n++, unavailable);
    assert.equal(probeWithCache(file, bwrap, none).available, false);
    assert.equal(probeWithCache(file, bwrap, none).available, false);
    assert.equal(n, 2);
    assert.equal(fs.existsSync(file), false);
    const unfiltered = (): SandboxAvailability => (
      n++,
      { available: true, bwrap, version: 'v', socketFilterMissing: { nested: 'no' } }
    );
    probeWithCache(file, bwrap, unfiltered);
    probeWithCache(file, bwrap, unfiltered);
    assert.equal(n, 4);
    assert.equal(fs.existsSync(file), false, 'a sandbox without its socket filter is probed each time');
  });

  it('probes afresh for a diagnosis, keeping the new verdict, and drops a kept one a probe no longer finds', () => {
    const c = counted();
    probeWithCache(file, bwrap, c.probe);
    const first = JSON.parse(fs.readFileSync(file, 'utf8')) as { at: number };
    probeWithCache(file, bwrap, c.probe, first.at + 1000, true);
    assert.equal(c.calls(), 2, 'probed although a verdict was kept');
    assert.equal((JSON.parse(fs.readFileSync(file, 'utf8')) as { at: number }).at, first.at + 1000);
    const none = (): SandboxAvailability => ({
      available: false,
      problem: 'gone',
      fix: 'reinstall',
      say: () => ({ problem: 'gone', fix: 'reinstall' }),
    });
    assert.equal(probeWithCache(file, bwrap, none, Date.now(), true).available, false);
    assert.equal(fs.existsSync(file), false, 'a sandbox that no longer starts is not remembered');
  });

  it('keys the verdict by the binary, so equal binaries elsewhere differ', () => {
    const other = path.join(root, 'bin', 'bwrap-3');
    fs.copyFileSync(bwrap, other);
    assert.notEqual(probeKey(bwrap), probeKey(other));
    assert.equal(probeKey(bwrap), probeKey(bwrap));
  });

  it('is what a CommandSandbox given the file reads for its state', () => {
    const c = counted();
    probeWithCache(file, bwrap, c.probe);
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string };
    // A version only the file says: the state came from the file, not from a probe.
    fs.writeFileSync(file, JSON.stringify({ ...kept, version: 'bubblewrap (kept)' }));
    const sandbox = new CommandSandbox({ setting: 'auto', allowedHosts: () => [], bwrap, probeCache: file });
    const state = sandbox.state;
    assert.equal(state.kind, 'on');
    assert.equal(state.kind === 'on' && state.version, 'bubblewrap (kept)');
  });
});
