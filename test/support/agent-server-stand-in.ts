// A stand-in for the OpenHands agent-server, speaking the protocol as recorded from the real one
// (test/remote/ runs the real one): POST /api/conversations answers an id, the event stream checks
// the first frame's key and then sends what the test gives it. For tests of what a lying or
// misbehaving server does, and for the bench of the stream's latency.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export const KEY = 'stand-in-key';
export const CONVERSATION = '6f1c0000-0000-4000-8000-000000000001';

/** A server frame (unmasked, one frame per text). */
export function text(payload: string): Buffer {
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
export function event(kind: string, fields: Record<string, unknown>): Record<string, unknown> {
  clock += 1;
  return {
    id: `00000000-0000-4000-8000-${String(clock).padStart(12, '0')}`,
    timestamp: `2026-01-01T00:00:${String(clock % 60).padStart(2, '0')}.000000`,
    source: 'environment',
    kind,
    ...fields,
  };
}

export const status = (value: string, parent: unknown) =>
  event('ConversationStateUpdateEvent', { key: 'execution_status', value, parent_id: parent });

/** Starts the stand-in; `frames` are what its event stream sends after a correct auth frame. */
export async function standIn(opts: {
  frames?: () => string[];
  startStatus?: number;
  /** Called with the socket once the client's key checked out, instead of sending `frames`. */
  stream?: (socket: Socket) => void;
  /** Answers a GET the stand-in does not know (the git and file routes): the JSON or bytes to send. */
  get?: (url: URL) => unknown;
  /** Told of each event stream opened (its path and query: where a resumed stream starts). */
  upgraded?: (url: string) => void;
}): Promise<{
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
    const answer = req.method === 'GET' ? opts.get?.(new URL(req.url ?? '/', 'http://stand-in')) : undefined;
    if (Buffer.isBuffer(answer)) return res.writeHead(200).end(answer);
    if (answer !== undefined)
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket: Socket) => {
    opts.upgraded?.(req.url ?? '');
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
      if (opts.stream) return opts.stream(socket);
      for (const f of opts.frames?.() ?? []) socket.write(text(f));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}
