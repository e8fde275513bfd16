// `logbook run --remote` against an agent-server that lies or misbehaves. The server here is a
// recorded-protocol stand-in (the agent-server's start request and event stream as the real one
// speaks them, test/remote/ runs the real one): it forges the mark of another server, sends frames
// that are not events, an event Logbook cannot read, or an error for the start request. Nothing
// it sends may pass for another server's, and what was received before stays in the signed log.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../cli/cli-runner';

const KEY = 'hostile-test-key';
const CONVERSATION = '6f1c0000-0000-4000-8000-000000000001';

/** A server frame (unmasked, one frame per text). */
function text(payload: string): Buffer {
  const body = Buffer.from(payload);
  const head = body.length < 126 ? Buffer.from([0x81, body.length]) : Buffer.alloc(4);
  if (body.length >= 126) {
    head[0] = 0x81;
    head[1] = 126;
    head.writeUInt16BE(body.length, 2);
  }
  return Buffer.concat([head, body]);
}

let clock = 0;
function event(kind: string, fields: Record<string, unknown>): Record<string, unknown> {
  clock += 1;
  return {
    id: `00000000-0000-4000-8000-${String(clock).padStart(12, '0')}`,
    timestamp: `2026-01-01T00:00:${String(clock % 60).padStart(2, '0')}.000000`,
    source: 'environment',
    kind,
    ...fields,
  };
}

const status = (value: string, parent: unknown) =>
  event('ConversationStateUpdateEvent', { key: 'execution_status', value, parent_id: parent });

/** Starts the stand-in; `frames` are what its event stream sends after a correct auth frame. */
async function standIn(opts: { frames?: () => string[]; startStatus?: number }): Promise<{
  url: string;
  server: Server;
}> {
  const server = createServer((req, res) => {
    if (req.headers['x-session-api-key'] !== KEY) return res.writeHead(401).end('{"detail":"Unauthorized"}');
    if (req.method === 'POST' && req.url === '/api/conversations') {
      req.resume();
      if (opts.startStatus) return res.writeHead(opts.startStatus).end('{"detail":"boom"}');
      return res
        .writeHead(201, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ id: CONVERSATION }));
    }
    if (req.url?.startsWith(`/api/conversations/${CONVERSATION}/events/search`)) {
      return res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"items":[],"next_page_id":null}');
    }
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.once('data', (chunk: Buffer) => {
      // The client's first frame (masked): the auth message.
      const len = chunk[1]! & 0x7f;
      const at = len === 126 ? 4 : 2;
      const size = len === 126 ? chunk.readUInt16BE(2) : len;
      const mask = chunk.subarray(at, at + 4);
      const body = Buffer.from(chunk.subarray(at + 4, at + 4 + size).map((b, i) => b ^ mask[i % 4]!));
      const auth = JSON.parse(body.toString()) as { type?: string; session_api_key?: string };
      if (auth.type !== 'auth' || auth.session_api_key !== KEY) {
        socket.end(Buffer.from([0x88, 2, 0x0f, 0xa1]));
        return;
      }
      for (const f of opts.frames?.() ?? []) socket.write(text(f));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

function logged(dir: string): Record<string, unknown>[] {
  return readdirSync(join(dir, 'segments'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, 'segments', f), 'utf8').split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l.split(' ').slice(3).join(' ')) as Record<string, unknown>);
}

describe('hostile: an agent-server that lies to logbook run --remote', function () {
  this.timeout(60_000);
  let root: string;
  let server: Server | undefined;
  const env = {
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'sk-test',
    LOGBOOK_MODEL: 'scripted-model',
    LOGBOOK_REMOTE_KEY: KEY,
  };

  beforeEach(() => {
    // Under the repository's ignored test output, not /tmp.
    const base = join(__dirname, '..', '..', '..', 'test-results');
    mkdirSync(base, { recursive: true });
    root = mkdtempSync(join(base, 'hostile-remote-'));
  });
  afterEach(() => {
    server?.close();
    server = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  const storeOf = () => join(root, '.logbook', 'conversations', CONVERSATION);

  it("an event that claims another server's mark is logged with the server it really came from", async () => {
    const s = await standIn({
      frames: () => {
        const msg = event('MessageEvent', {
          source: 'user',
          parent_id: null,
          llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          received_from: { server: 'https://trusted.example', at: '2020-01-01T00:00:00Z' },
        });
        return [JSON.stringify(msg), JSON.stringify(status('finished', msg.id))];
      },
    });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const events = logged(storeOf());
    assert.equal(events.length, 2);
    for (const e of events) assert.equal((e.received_from as { server: string }).server, s.url);
  });

  it('frames that are not events are ignored; an event Logbook cannot read stops the run, what came before stays', async () => {
    const s = await standIn({
      frames: () => {
        const msg = event('MessageEvent', {
          source: 'user',
          parent_id: null,
          llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        });
        const broken = event('ActionEvent', { source: 'agent', parent_id: msg.id, action: 'not an object' });
        return ['not json', '{"kind":"NoId"}', '[1,2]', JSON.stringify(msg), JSON.stringify(broken)];
      },
    });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /the server sent an event Logbook cannot read/);
    const events = logged(storeOf());
    assert.deepEqual(
      events.map((e) => e.kind),
      ['MessageEvent'],
    );
    const verify = await runCli(['verify', storeOf()], { env });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  it('a start request the server fails is a clear error and writes nothing', async () => {
    const s = await standIn({ startStatus: 500 });
    server = s.server;
    const r = await runCli(['run', '--remote', s.url, 'hi'], { env, cwd: root });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /answered POST \/api\/conversations with HTTP 500/);
    assert.equal(existsSync(join(root, '.logbook')), false);
  });

  it('a server URL carrying credentials is refused before anything is sent', async () => {
    const r = await runCli(['run', '--remote', 'http://user:pw@127.0.0.1:9', 'hi'], { env, cwd: root });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /give the session key in LOGBOOK_REMOTE_KEY, not in the URL/);
    assert.doesNotMatch(r.stderr + r.stdout, /pw/);
  });
});
