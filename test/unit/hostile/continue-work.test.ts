// The CLI asks the model through a fetch of its own (host/node/model-fetch.ts), not Node's. A
// hostile endpoint that redirects the request to another origin must not get the API key sent
// there: the redirect is left to Node's fetch, which drops credentials across origins, as it did
// before. One that answers with a compressed endless line (a few KB that inflate without end) is
// cut at the reply's size limit as it inflates, not after. The real CLI runs as a child process,
// in act and in plan mode, against servers of this process.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture } from '../cli/fixtures';

type Mode = 'act' | 'plan';
const KEY = 'sk-hostile-redirect-0123456789';

/** One streamed reply that calls `finish`. */
function finishStream(): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-redirected',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'scripted-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const call = {
    index: 0,
    id: 'call_finish',
    type: 'function',
    function: { name: 'finish', arguments: JSON.stringify({ message: 'Done.' }) },
  };
  return (
    chunk({ role: 'assistant', tool_calls: [call] }, null) + chunk({}, 'tool_calls') + 'data: [DONE]\n\n'
  );
}

async function listen(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('hostile endpoint: the CLI’s own fetch for the model', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const mode of ['act', 'plan'] as Mode[])
    it(`${mode} mode: a redirect to another origin is followed without the API key`, async () => {
      const seen: { origin: string; path: string; headers: http.IncomingHttpHeaders }[] = [];
      const other = await listen((req, res) => {
        seen.push({ origin: 'other', path: req.url ?? '', headers: req.headers });
        req.resume().on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(finishStream());
        });
      });
      const endpoint = await listen((req, res) => {
        seen.push({ origin: 'endpoint', path: req.url ?? '', headers: req.headers });
        req.resume().on('end', () => {
          res.writeHead(307, { location: `${other.url}${req.url ?? ''}` });
          res.end();
        });
      });
      try {
        const ws = fx.tmp('logbook-hostile-redirect-ws-');
        const r = await runCli(
          ['run', '--workspace', ws, '--store', fx.tmp(), '--mode', mode, '--task', 'say done'],
          {
            env: {
              OPENAI_BASE_URL: `${endpoint.url}/v1`,
              OPENAI_API_KEY: KEY,
              LOGBOOK_MODEL: 'scripted-model',
            },
          },
        );
        assert.equal(r.code, 0, printed(r));
        assert.match(r.stdout, /finish: Done\./, printed(r));
        const asked = seen.filter((s) => s.path.endsWith('/chat/completions'));
        assert.equal(asked[0]?.origin, 'endpoint');
        assert.equal(asked[0]?.headers.authorization, `Bearer ${KEY}`, 'the endpoint itself gets the key');
        const elsewhere = asked.filter((s) => s.origin === 'other');
        assert.ok(elsewhere.length > 0, 'the redirect was followed');
        for (const s of elsewhere)
          assert.ok(!JSON.stringify(s.headers).includes(KEY), JSON.stringify(s.headers));
      } finally {
        await endpoint.close();
        await other.close();
      }
    });

  for (const mode of ['act', 'plan'] as Mode[])
    it(`${mode} mode: a gzip answer that inflates into an endless line is stopped at the size limit`, async () => {
      let sent = 0;
      const endpoint = await listen((req, res) => {
        req.resume().on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          const gzip = zlib.createGzip();
          gzip.pipe(res);
          gzip.write('data: {"choices":[{"index":0,"delta":{"content":"');
          const block = 'a'.repeat(64 * 1024);
          // Endless: until the client goes away (a few KB on the wire per MB inflated).
          const more = () => {
            if (res.destroyed || sent > 4096) return;
            sent++;
            if (gzip.write(block)) setImmediate(more);
            else gzip.once('drain', more);
          };
          res.on('close', () => gzip.destroy());
          more();
        });
      });
      try {
        const started = Date.now();
        const r = await runCli(
          ['run', '--workspace', fx.tmp(), '--store', fx.tmp(), '--mode', mode, '--task', 'say done'],
          {
            env: {
              OPENAI_BASE_URL: `${endpoint.url}/v1`,
              OPENAI_API_KEY: KEY,
              LOGBOOK_MODEL: 'scripted-model',
              LOGBOOK_MAX_REPLY_BYTES: String(64 * 1024),
            },
          },
        );
        assert.notEqual(r.code, 0, printed(r));
        assert.match(r.stdout, /passed 448 KiB, the size limit for one reply; it was stopped/, printed(r));
        // The line cap is 6 × the reply limit + 64 KiB of inflated text: far below what was offered.
        assert.ok(sent < 4096, `the endpoint was read to its end (${sent} blocks)`);
        assert.ok(Date.now() - started < 30_000);
      } finally {
        await endpoint.close();
      }
    });
});
