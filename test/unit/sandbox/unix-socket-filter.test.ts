// The seccomp program, loaded by the real bubblewrap: a sandboxed process cannot connect to a
// real listening Unix socket outside the sandbox (in a folder outside /tmp, which the sandbox
// replaces anyway), while socketpair and IP sockets still work.
import assert from 'node:assert/strict';
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { unixSocketFilter } from '../../../src/host/node/sandbox/unix-socket-filter';

/** Runs python3 in a real bwrap, with the filter read from fd 9 when a file is given. */
async function bwrap(
  filterFile: string | undefined,
  code: string,
): Promise<{ status: number | null; out: string }> {
  const fd = filterFile === undefined ? undefined : openSync(filterFile, 'r');
  const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
  if (fd !== undefined) stdio.push(...Array<'ignore'>(6).fill('ignore'), fd);
  const filterArgs = fd === undefined ? [] : ['--seccomp', '9'];
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', ...filterArgs];
  // Asynchronous, so that this process's server can answer while the child runs.
  const child = spawn('bwrap', [...args, '--', 'python3', '-c', code], { stdio });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (fd !== undefined) closeSync(fd);
  return { status, out };
}

describe('unix socket seccomp filter (real bwrap)', function () {
  this.timeout(30_000);
  let base = '';
  let server: Server;
  let path = '';

  before(async () => {
    base = mkdtempSync(join(homedir(), '.logbook-socket-'));
    path = join(base, 'host.sock');
    server = createServer((c) => c.end('reached-the-host\n'));
    await new Promise<void>((resolve) => server.listen(path, resolve));
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(base, { recursive: true, force: true });
  });

  const connect = () =>
    `import socket;s=socket.socket(socket.AF_UNIX);s.connect(${JSON.stringify(path)});print(s.recv(64).decode())`;

  it('without the filter the socket is reachable (the check can fail)', async () => {
    assert.match((await bwrap(undefined, connect())).out, /reached-the-host/);
  });

  it('with the filter, socket(AF_UNIX) fails with EPERM', async () => {
    const file = join(base, 'filter.bpf');
    writeFileSync(file, unixSocketFilter());
    const r = await bwrap(file, connect());
    assert.doesNotMatch(r.out, /reached-the-host/);
    assert.match(r.out, /Operation not permitted/);
  });

  it('with the filter, socketpair and IP sockets still work', async () => {
    const file = join(base, 'filter.bpf');
    writeFileSync(file, unixSocketFilter());
    const r = await bwrap(
      file,
      'import socket;socket.socketpair();socket.socket(socket.AF_INET);print("fine")',
    );
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /fine/);
  });
});
