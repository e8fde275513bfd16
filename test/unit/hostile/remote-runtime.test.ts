// A runtime API that answers badly: a server URL Logbook must not use, a page of terminal escapes
// for an error. Each stops `run --runtime-api` with a clear error, before any conversation starts
// and without the runtime API's key in the output.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { testRoot } from '../../support/agent-server';
import { runCli } from '../cli/cli-runner';

const KEY = 'hostile-runtime-key';

async function api(
  answer: (path: string) => { status: number; body: string },
): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      const a = answer(req.url ?? '/');
      res.writeHead(a.status, { 'Content-Type': 'application/json' });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paths };
}

describe('hostile: a runtime API answering run --runtime-api badly', function () {
  this.timeout(60_000);
  let root: string;
  let server: Server | undefined;
  beforeEach(() => {
    root = testRoot('hostile-runtime');
    mkdirSync(join(root, 'ws'));
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function run(url: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
    return runCli(['run', '--runtime-api', url, '--runtime-timeout', '3', 'a task'], {
      env: { LOGBOOK_RUNTIME_API_KEY: KEY, OPENAI_API_KEY: 'sk-test', LOGBOOK_MODEL: 'scripted-model' },
      cwd: join(root, 'ws'),
    });
  }

  for (const bad of ['file:///etc/passwd', 'http://user:pass@127.0.0.1:9', 'not a url']) {
    it(`a server URL of ${bad} is refused before the session key goes anywhere`, async () => {
      const a = await api((p) =>
        p === '/start'
          ? {
              status: 201,
              body: JSON.stringify({ runtime_id: 'rt-1', url: bad, session_api_key: 'sk-session' }),
            }
          : { status: 200, body: JSON.stringify({ pod_status: 'ready' }) },
      );
      server = a.server;
      const r = await run(a.url);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /the runtime API answered a server URL Logbook cannot use/);
      assert.deepEqual(a.paths, ['POST /start']);
      assert.ok(!r.stderr.includes(KEY) && !r.stderr.includes('sk-session'));
      assert.equal(existsSync(join(root, 'ws', '.logbook', 'conversations')), false);
    });
  }

  it('an error page full of terminal escapes is printed escaped, cut short', async () => {
    const a = await api(() => ({ status: 500, body: `\u001b]0;owned\u0007\u001b[2J${'x'.repeat(5000)}` }));
    server = a.server;
    const r = await run(a.url);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /answered POST \/start with HTTP 500/);
    assert.ok(!r.stderr.includes('\u001b'), 'an escape reached the terminal');
    assert.ok(r.stderr.length < 2000, 'the page was printed whole');
  });

  it('an answer without a session key starts nothing', async () => {
    const a = await api(() => ({
      status: 201,
      body: JSON.stringify({ runtime_id: 'rt-1', url: 'http://127.0.0.1:9' }),
    }));
    server = a.server;
    const r = await run(a.url);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /its answer lacks runtime_id, url or session_api_key/);
    assert.deepEqual(a.paths, ['POST /start']);
  });
});
