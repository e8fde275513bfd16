// The guarded fetch against a real local HTTP server. The server listens on 127.0.0.1, which the
// rules refuse; a test that needs it served stands it behind a made-up public name by giving the
// fetch an already-checked first hop (as the mention's confirmation does) or by allowing private
// addresses, as the setting would.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  checkTarget,
  FetchRefused,
  guardedFetch,
  type GuardedFetchOptions,
  isAllowedHost,
  type Lookup,
} from '../../../src/host/node/web/guarded-fetch';

const CLOSED = { allowPrivateAddresses: false, allowedHosts: [] };
const OPEN = { allowPrivateAddresses: true, allowedHosts: [] };

describe('guarded fetch', function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;
  let hits: string[];
  let route: (req: IncomingMessage, res: ServerResponse) => void;

  beforeEach(async () => {
    hits = [];
    route = (_req, res) => res.end('ok');
    server = createServer((req, res) => {
      hits.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
      route(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  function options(extra: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions {
    return { ...CLOSED, maxBytes: 1024 * 1024, timeoutMs: 5_000, ...extra };
  }

  /** A first hop at a public-looking name whose checked address is the local server. */
  function publicFirst(path: string) {
    return { url: new URL(`http://docs.example:${port}${path}`), address: '127.0.0.1', family: 4 };
  }

  async function refused(p: Promise<unknown>, pattern: RegExp): Promise<void> {
    await assert.rejects(p, (err: unknown) => {
      assert.ok(err instanceof FetchRefused, String(err));
      assert.match(err.message, pattern);
      return true;
    });
  }

  it('refuses loopback, private, link-local and unspecified addresses before connecting', async () => {
    await refused(guardedFetch(`http://127.0.0.1:${port}/`, options()), /127\.0\.0\.1 is a loopback address/);
    await refused(guardedFetch(`http://[::ffff:127.0.0.1]:${port}/`, options()), /loopback/);
    await refused(guardedFetch(`http://2130706433:${port}/`, options()), /127\.0\.0\.1 is a loopback/);
    await refused(guardedFetch('http://169.254.169.254/latest/meta-data/', options()), /link-local/);
    await refused(guardedFetch('http://10.0.0.1/', options()), /private network/);
    await refused(guardedFetch('http://0.0.0.0/', options()), /unspecified/);
    assert.deepEqual(hits, []);
  });

  it('refuses a name that resolves to 127.0.0.1, through DNS or any of its answers', async () => {
    const lookup: Lookup = async (host) =>
      host === 'inside.example'
        ? [{ address: '127.0.0.1', family: 4 }]
        : [
            { address: '93.184.216.34', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ];
    await refused(
      guardedFetch(`http://inside.example:${port}/`, options({ lookup })),
      /inside\.example resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    await refused(guardedFetch('http://both.example/', options({ lookup })), /resolves to 10\.1\.2\.3/);
    // The system's own resolver: localhost is this machine whatever address family it gives.
    await refused(guardedFetch(`http://localhost:${port}/`, options()), /localhost resolves to .*loopback/);
    assert.deepEqual(hits, []);
  });

  it('checks every redirect hop: to 127.0.0.1, to 169.254.169.254, to a name inside', async () => {
    const lookup: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    for (const [to, why] of [
      [`http://127.0.0.1:${port}/admin`, /127\.0\.0\.1 is a loopback address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
      [`http://router.example:${port}/`, /router\.example resolves to 127\.0\.0\.1/],
      ['file:///etc/passwd', /file: URLs are not fetched/],
    ] as const) {
      hits = [];
      route = (_req, res) => res.writeHead(302, { location: to }).end();
      await refused(
        guardedFetch('http://docs.example/', options({ first: publicFirst('/start'), lookup })),
        new RegExp(`redirected to .*: ${why.source}`),
      );
      assert.deepEqual(hits, [`docs.example:${port}/start`], 'only the first hop was requested');
    }
  });

  it('connects to the checked address, not to what the name resolves to later', async () => {
    let asked = 0;
    const lookup: Lookup = async () => {
      asked++;
      return [{ address: '203.0.113.9', family: 4 }];
    };
    const page = await guardedFetch('http://docs.example/', options({ first: publicFirst('/page'), lookup }));
    assert.equal(asked, 0);
    assert.equal(page.address, '127.0.0.1');
    assert.equal(page.url, `http://docs.example:${port}/page`);
    assert.deepEqual(hits, [`docs.example:${port}/page`], 'the Host header keeps the name');
  });

  it('caps a huge page, and a small compressed one that inflates past the cap', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    route = (req, res) => {
      if (req.url === '/gz') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 'b')));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      // 64 MB if read whole; the fetch stops long before.
      let sent = 0;
      const more = () => {
        while (sent < 1024 && res.write(chunk)) sent++;
        if (sent >= 1024) res.end();
        else res.once('drain', more);
      };
      res.on('error', () => undefined);
      more();
    };
    const page = await guardedFetch(`http://127.0.0.1:${port}/huge`, { ...options(OPEN), maxBytes: 100_000 });
    assert.equal(page.cut, true);
    assert.equal(page.body.length, 100_000);
    const gz = await guardedFetch(`http://127.0.0.1:${port}/gz`, { ...options(OPEN), maxBytes: 100_000 });
    assert.equal(gz.cut, true);
    assert.equal(gz.body.length, 100_000);
    assert.equal(gz.body.toString('utf8', 0, 3), 'bbb');
  });

  it('with private addresses allowed, follows redirects and names the final URL and address', async () => {
    route = (req, res) => {
      if (req.url === '/a') res.writeHead(301, { location: '/b' }).end();
      else if (req.url === '/b') res.writeHead(307, { location: `http://localhost:${port}/c` }).end();
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>final</p>');
    };
    const lookup: Lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    const page = await guardedFetch(`http://127.0.0.1:${port}/a`, options({ ...OPEN, lookup }));
    assert.equal(page.status, 200);
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.body.toString(), '<p>final</p>');
    assert.equal(page.url, `http://localhost:${port}/c`);
    assert.equal(page.address, '127.0.0.1');
    assert.deepEqual(page.redirects, [`http://127.0.0.1:${port}/a`, `http://127.0.0.1:${port}/b`]);
    assert.equal(page.cut, false);
  });

  it('gives up after five redirects', async () => {
    route = (req, res) => res.writeHead(302, { location: `/r${hits.length}` }).end();
    await refused(guardedFetch(`http://127.0.0.1:${port}/`, options(OPEN)), /more than 5 redirects/);
    assert.equal(hits.length, 6);
  });

  it('ends a fetch that outlasts its timeout with a clear error', async () => {
    route = () => undefined; // never answers
    await assert.rejects(
      guardedFetch(`http://127.0.0.1:${port}/slow`, { ...options(OPEN), timeoutMs: 300 }),
      /slow gave no complete answer within 0 s/,
    );
  });

  it('fetches only http and https; data: only when private addresses are allowed', async () => {
    await refused(checkTarget('file:///etc/passwd', OPEN), /file: URLs are not fetched/);
    await refused(checkTarget('ftp://example.com/x', OPEN), /ftp: URLs are not fetched/);
    await refused(checkTarget('data:text/plain,hi', CLOSED), /data: URLs are not fetched/);
    await refused(checkTarget('not a url', OPEN), /not a URL/);
    await refused(checkTarget('http://user:pw@example.com/', OPEN), /user name or password/);
    const data = await guardedFetch('data:text/plain,hello', options(OPEN));
    assert.equal(data.body.toString(), 'hello');
    assert.equal(data.contentType, 'text/plain');
    // Nor is a data: URL reached through a redirect, even when allowed.
    route = (_req, res) => res.writeHead(302, { location: 'data:text/html,<p>forged</p>' }).end();
    await refused(guardedFetch(`http://127.0.0.1:${port}/`, options(OPEN)), /data: URL is not followed/);
  });

  it('knows the hosts the user listed, by name or by domain', () => {
    const rules = { allowPrivateAddresses: false, allowedHosts: ['docs.python.org', '*.example.com'] };
    assert.equal(isAllowedHost('https://docs.python.org/3/', rules), true);
    assert.equal(isAllowedHost('https://api.example.com/x', rules), true);
    assert.equal(isAllowedHost('https://example.org/', rules), false);
    assert.equal(isAllowedHost('not a url', rules), false);
  });
});
