// The sandbox's filtering proxy, against real sockets: a local HTTP server stands for the web.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { hostAllowed, NetworkProxy } from '../../../src/host/node/sandbox';

describe('sandbox: network proxy', () => {
  let origin: http.Server;
  let port: number;
  before(async () => {
    origin = http.createServer((req, res) => res.end(`origin saw ${req.method} ${req.url}`));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    port = (origin.address() as AddressInfo).port;
  });
  after(() => origin.close());

  it('matches exact names and *.domain wildcards only', () => {
    assert.ok(hostAllowed('registry.npmjs.org', ['registry.npmjs.org']));
    assert.ok(hostAllowed('a.b.example.com', ['*.example.com']));
    assert.ok(hostAllowed('example.com', ['*.example.com']));
    assert.ok(!hostAllowed('evilexample.com', ['*.example.com']));
    assert.ok(!hostAllowed('registry.npmjs.org.evil.net', ['registry.npmjs.org']));
    assert.ok(!hostAllowed('x.org', []));
  });

  it('tunnels to an allowed host and turns another away with 403, naming it', async () => {
    const denied: string[] = [];
    const proxy = await NetworkProxy.start({
      allow: (h) => h === '127.0.0.1',
      onDenied: (h) => denied.push(h),
    });
    try {
      const ok = await connectThrough(
        proxy.socketPath,
        `127.0.0.1:${port}`,
        'GET /hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      );
      assert.match(ok, /^HTTP\/1.1 200 Connection Established/);
      assert.match(ok, /origin saw GET \/hello/);
      const no = await connectThrough(proxy.socketPath, 'localhost:' + port, '');
      assert.match(no, /^HTTP\/1.1 403/);
      assert.match(no, /blocked network access to localhost/);
      assert.deepEqual(denied, ['localhost']);
    } finally {
      await proxy.close();
    }
  });

  it('forwards plain HTTP to an allowed host only, and waits for the user’s answer', async () => {
    let asked = '';
    const proxy = await NetworkProxy.start({
      allow: async (h) => {
        asked = h;
        await new Promise((r) => setTimeout(r, 50));
        return h === '127.0.0.1';
      },
    });
    try {
      const ok = await httpThrough(proxy.socketPath, `http://127.0.0.1:${port}/a`);
      assert.equal(ok.status, 200);
      assert.equal(ok.body, 'origin saw GET /a');
      assert.equal(asked, '127.0.0.1');
      const no = await httpThrough(proxy.socketPath, `http://localhost:${port}/a`);
      assert.equal(no.status, 403);
    } finally {
      await proxy.close();
    }
  });
});

function connectThrough(socketPath: string, target: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => s.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
    let text = '';
    let sent = false;
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      text += d;
      if (!sent && payload && text.includes('\r\n\r\n') && text.startsWith('HTTP/1.1 200')) {
        sent = true;
        s.write(payload);
      }
    });
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

function httpThrough(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath, path: url, method: 'GET', headers: { host: new URL(url).host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
