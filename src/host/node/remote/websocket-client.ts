// A small WebSocket client (RFC 6455) on node:http, for the agent-server's event stream: text
// messages in and out, pings answered, close reported. Node 20 has no WebSocket of its own.
import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';

const OP = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** A message larger than this is refused: the server's events are far smaller. */
const MAX_MESSAGE = 64 * 1024 * 1024;

export interface WebSocketLink {
  send(text: string): void;
  close(): void;
}

export interface WebSocketHandlers {
  message(text: string): void;
  /** The link ended: `why` says how (the server closed, the connection dropped, an error). */
  closed(why: string): void;
}

/** Opens `url` (ws: or wss:); rejects when the upgrade is refused, naming the HTTP status. */
export async function openWebSocket(
  url: string,
  handlers: WebSocketHandlers,
  timeoutMs = 10_000,
): Promise<WebSocketLink> {
  const u = new URL(url);
  const key = randomBytes(16).toString('base64');
  // Loaded here: `logbook run` bundles this client, and most runs talk to no server (TLS alone took
  // a short run some 4 ms to load).
  const { request } = u.protocol === 'wss:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({
      protocol: u.protocol === 'wss:' ? 'https:' : 'http:',
      hostname: u.hostname,
      port: u.port,
      path: `${u.pathname}${u.search}`,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Key': key,
        'Sec-WebSocket-Version': '13',
      },
      timeout: timeoutMs,
    });
    req.once('timeout', () => req.destroy(new Error(`no answer from ${u.host} in ${timeoutMs} ms`)));
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      reject(new Error(`the server refused the event stream (HTTP ${res.statusCode ?? '?'})`));
    });
    req.once('upgrade', (res, socket: Socket, head: Buffer) => {
      const expected = createHash('sha1')
        .update(key + GUID)
        .digest('base64');
      if (res.headers['sec-websocket-accept'] !== expected) {
        socket.destroy();
        reject(new Error('the server answered the event stream with a wrong handshake'));
        return;
      }
      socket.setTimeout(0);
      socket.setNoDelay(true);
      resolve(link(socket, head, handlers));
    });
    req.end();
  });
}

function link(socket: Socket, head: Buffer, handlers: WebSocketHandlers): WebSocketLink {
  let buffer: Buffer = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let partsLength = 0;
  let ended = false;
  const end = (why: string) => {
    if (ended) return;
    ended = true;
    socket.destroy();
    handlers.closed(why);
  };
  const write = (op: number, payload: Buffer) => {
    if (ended || socket.destroyed) return;
    socket.write(frame(op, payload));
  };
  const take = (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      const f = readFrame(buffer);
      if (f === 'incomplete') return;
      if (f === 'too-large') return end('a message from the server was too large');
      buffer = buffer.subarray(f.size);
      if (f.op === OP.ping) write(OP.pong, f.payload);
      else if (f.op === OP.close) {
        const code = f.payload.length >= 2 ? f.payload.readUInt16BE(0) : 1005;
        const reason = f.payload.subarray(2).toString('utf8');
        write(OP.close, f.payload.subarray(0, 2));
        return end(`the server closed the event stream (${code}${reason ? `: ${reason}` : ''})`);
      } else if (f.op === OP.text || f.op === OP.binary || f.op === OP.continuation) {
        parts.push(f.payload);
        partsLength += f.payload.length;
        if (partsLength > MAX_MESSAGE) return end('a message from the server was too large');
        if (f.fin) {
          const text = Buffer.concat(parts).toString('utf8');
          parts = [];
          partsLength = 0;
          handlers.message(text);
        }
      }
    }
  };
  // Frames that came with the handshake are read once the caller holds the link.
  if (head.length) setImmediate(() => take(head));
  socket.on('data', take);
  socket.on('error', (err) => end(`the connection failed: ${err.message}`));
  socket.on('close', () => end('the connection dropped'));
  return {
    send: (text) => write(OP.text, Buffer.from(text, 'utf8')),
    close: () => {
      write(OP.close, Buffer.from([0x03, 0xe8]));
      end('closed by Logbook');
    },
  };
}

/** One client frame: always masked, as the protocol requires of clients. */
function frame(op: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const header = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | op;
  if (len < 126) header[1] = 0x80 | len;
  else if (len < 65536) {
    header[1] = 0x80 | 126;
    header.writeUInt16BE(len, 2);
  } else {
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i]! ^ mask[i % 4]!;
  return Buffer.concat([header, mask, body]);
}

type Frame = { op: number; fin: boolean; payload: Buffer; size: number };

function readFrame(b: Buffer): Frame | 'incomplete' | 'too-large' {
  if (b.length < 2) return 'incomplete';
  const fin = (b[0]! & 0x80) !== 0;
  const op = b[0]! & 0x0f;
  const masked = (b[1]! & 0x80) !== 0;
  let len = b[1]! & 0x7f;
  let at = 2;
  if (len === 126) {
    if (b.length < 4) return 'incomplete';
    len = b.readUInt16BE(2);
    at = 4;
  } else if (len === 127) {
    if (b.length < 10) return 'incomplete';
    const big = b.readBigUInt64BE(2);
    if (big > BigInt(MAX_MESSAGE)) return 'too-large';
    len = Number(big);
    at = 10;
  }
  const maskAt = at;
  if (masked) at += 4;
  if (b.length < at + len) return 'incomplete';
  let payload = b.subarray(at, at + len);
  if (masked) {
    const m = b.subarray(maskAt, maskAt + 4);
    payload = Buffer.from(payload.map((x, i) => x ^ m[i % 4]!));
  }
  return { op, fin, payload, size: at + len };
}
