// How the Unix socket filter is put on a command: the nested bwrap after the network bridge, the
// ids it maps back, the program on its descriptor, and what the status says where no filter applies.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { withBridge } from '../../../src/host/node/sandbox/network-bridge';
import {
  filterRedirect,
  outerIds,
  SOCKET_FILTER_FD,
  socketFilterSupported,
  unixSocketFilter,
} from '../../../src/host/node/sandbox/unix-socket-filter';
import {
  describeSandbox,
  probeSandbox,
  sandboxReport,
  sandboxReportText,
} from '../../../src/host/node/sandbox';

describe('sandbox: the Unix socket filter on each launch', () => {
  it('maps root to a stand-in outside (a nested namespace cannot map uid 0 without CAP_SETFCAP), any other user to itself', () => {
    assert.deepEqual(outerIds({ uid: 0, gid: 0 }), { uid: 1, gid: 1 });
    assert.deepEqual(outerIds({ uid: 1000, gid: 1000 }), { uid: 1000, gid: 1000 });
  });

  it('starts the bridge first, then execs the nested bwrap that loads the program on its descriptor', () => {
    const argv = withBridge(
      { node: '/usr/bin/node', socat: '/usr/bin/socat' },
      '/run/p.sock',
      ['bash', '-i'],
      {
        bwrap: '/usr/bin/bwrap',
        ids: { uid: 0, gid: 0 },
      },
    );
    const script = argv[4]!;
    assert.ok(script.indexOf('setsid') < script.indexOf('exec "$@"'), script);
    assert.match(script, new RegExp(`exec "\\$@" ${SOCKET_FILTER_FD}< <\\(printf '`));
    const nested = argv.slice(argv.indexOf('/usr/bin/bwrap'));
    assert.deepEqual(nested, [
      '/usr/bin/bwrap',
      '--unshare-user',
      '--uid',
      '0',
      '--gid',
      '0',
      '--cap-drop',
      'ALL',
      '--dev-bind',
      '/',
      '/',
      '--seccomp',
      String(SOCKET_FILTER_FD),
      '--',
      'bash',
      '-i',
    ]);
    const plain = withBridge({ node: '/usr/bin/node' }, '/run/p.sock', ['bash']);
    assert.ok(!plain.includes('--seccomp'));
  });

  it("the redirection's printf writes the program byte for byte", () => {
    const r = spawnSync('/bin/bash', ['-c', `cat ${filterRedirect()} <&${SOCKET_FILTER_FD}`]);
    assert.equal(r.status, 0, String(r.stderr));
    assert.deepEqual(r.stdout, unixSocketFilter());
  });

  it('applies only where the program knows the syscall table', () => {
    assert.ok(socketFilterSupported('x64') && socketFilterSupported('arm64'));
    assert.ok(!socketFilterSupported('riscv64') && !socketFilterSupported('ia32'));
  });

  it('says so, with a warning, where commands can still reach Unix sockets outside', () => {
    const on = { kind: 'on' as const, bwrap: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0' };
    assert.equal(describeSandbox(on).warn, false);
    const riscv = { ...on, socketFilterMissing: { arch: 'riscv64' } };
    const text = describeSandbox(riscv);
    assert.equal(text.warn, true);
    assert.match(
      text.headline,
      /can still connect to Unix sockets outside the sandbox: .*no seccomp filter for riscv64/,
    );
    const input = { workspaces: ['/ws'], writable: [], hidden: [], allowedHosts: [] };
    const report = sandboxReport({ ...input, state: riscv });
    assert.equal(report.unix_sockets_filtered, false);
    assert.match(
      sandboxReportText(report),
      /Unix sockets commands may connect to:\n {2}Commands can still connect/,
    );
    const nested = describeSandbox({
      ...on,
      socketFilterMissing: { nested: 'bwrap: setting up uid map: Operation not permitted' },
    });
    assert.match(nested.headline, /nested bubblewrap .* did not start \(bwrap: setting up uid map/);
    assert.ok(nested.fix);
    const filtered = sandboxReport({ ...input, state: on });
    assert.equal(filtered.unix_sockets_filtered, true);
    assert.match(filtered.unix_sockets, /^none: creating one fails/);
  });

  it('the probe starts the real nested bwrap with the filter; on another architecture it reports the filter missing', function () {
    this.timeout(20_000);
    const here = probeSandbox();
    if (!here.available) this.skip();
    assert.equal(here.socketFilterMissing, undefined);
    const other = probeSandbox(undefined, 'linux', 'riscv64');
    assert.ok(other.available);
    assert.deepEqual(other.socketFilterMissing, { arch: 'riscv64' });
  });
});
