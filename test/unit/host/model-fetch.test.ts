// The CLI's fetch for the model (host/node/model-fetch.ts): what it does not answer itself goes to
// Node's fetch as before (a redirect), a compressed body reads as Node's fetch reads it, and its
// failures have the shape the SDK and classifyError know. The client's whole suite also runs
// through it (test/unit/llm/harness.ts).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { modelFetch } from '../../../src/host/node/model-fetch';

const SSE = 'data: {"n":1}\n\ndata: [DONE]\n\n';

/** A server answering each request by `answer`; the requests it got (path, method, body, headers). */
async function serve(answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {
  const got: { path: string; method: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      got.push({ path: req.url ?? '', method: req.method ?? '', body, headers: req.headers });
      answer(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('the CLI’s fetch for the model', () => {
  it('sends the body and headers, and streams the answer', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(SSE);
    });
    try {
      const res = await modelFetch()(`${s.base}/v1/chat/completions`, {
        method: 'POST',
        headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
        body: '{"é":1}',
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/event-stream');
      assert.equal(await res.text(), SSE);
      assert.equal(s.got[0]!.body, '{"é":1}');
      assert.equal(s.got[0]!.headers['content-length'], String(Buffer.byteLength('{"é":1}')));
      assert.equal(s.got[0]!.headers.authorization, 'Bearer k');
    } finally {
      await s.close();
    }
  });

  it('leaves a redirect to Node’s fetch, which asks again where it points', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/old/chat') {
        res.writeHead(307, { location: '/new/chat' });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(SSE);
      }
    });
    let fellBack = 0;
    const viaNode: typeof fetch = (input, init) => {
      fellBack++;
      return fetch(input, init);
    };
    try {
      const res = await modelFetch(viaNode)(`${s.base}/old/chat`, { method: 'POST', body: '{"a":1}' });
      assert.equal(await res.text(), SSE);
      assert.equal(fellBack, 1);
      assert.deepEqual(
        s.got.map((g) => [g.path, g.method, g.body]),
        [
          ['/old/chat', 'POST', '{"a":1}'],
          ['/old/chat', 'POST', '{"a":1}'],
          ['/new/chat', 'POST', '{"a":1}'],
        ],
      );
    } finally {
      await s.close();
    }
  });

  it('leaves a URL with credentials to Node’s fetch, which refuses it as before', async () => {
    const err = await modelFetch()('http://user:secret@127.0.0.1:1/v1', { method: 'POST', body: '{}' }).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof TypeError, String(err));
    assert.match(err.message, /URL that includes credentials/);
  });

  for (const coding of ['gzip', 'deflate', 'br'] as const) {
    it(`reads a ${coding} body as text, as Node’s fetch does`, async () => {
      const packed =
        coding === 'gzip'
          ? zlib.gzipSync(SSE)
          : coding === 'deflate'
            ? zlib.deflateSync(SSE)
            : zlib.brotliCompressSync(SSE);
      const s = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': coding });
        res.end(packed);
      });
      try {
        const res = await modelFetch()(`${s.base}/v1`, { method: 'POST', body: '{}' });
        assert.equal(await res.text(), SSE);
        assert.equal(res.headers.get('content-encoding'), null);
      } finally {
        await s.close();
      }
    });
  }

  it('fails as Node’s fetch does: before an answer, when the body breaks off, when aborted', async () => {
    const s = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      if (req.url === '/drop') setTimeout(() => res.socket?.destroy(), 20);
    });
    try {
      const closed = s.base.replace(/:\d+$/, ':1');
      const refused = await modelFetch()(`${closed}/v1`, { method: 'POST', body: '{}' }).catch(
        (e: unknown) => e,
      );
      assert.ok(refused instanceof TypeError && refused.message === 'fetch failed', String(refused));
      assert.equal((refused.cause as NodeJS.ErrnoException).code, 'ECONNREFUSED');

      const dropped = await modelFetch()(`${s.base}/drop`, { method: 'POST', body: '{}' });
      const broken = await dropped.text().catch((e: unknown) => e);
      assert.ok(broken instanceof TypeError && broken.message === 'terminated', String(broken));

      const controller = new AbortController();
      const open = await modelFetch()(`${s.base}/hold`, {
        method: 'POST',
        body: '{}',
        signal: controller.signal,
      });
      const reading = open.text().catch((e: unknown) => e);
      controller.abort();
      assert.equal(((await reading) as Error).name, 'AbortError');
      const early = await modelFetch()(`${s.base}/hold`, {
        method: 'POST',
        body: '{}',
        signal: AbortSignal.abort(),
      }).catch((e: unknown) => e);
      assert.equal((early as Error).name, 'AbortError');
    } finally {
      s.close().catch(() => undefined);
    }
  });
});
