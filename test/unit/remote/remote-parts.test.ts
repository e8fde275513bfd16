// The parts of a remote run that need no agent-server: how a received event joins the log, what
// the events say of the conversation, the request Logbook sends, and the WebSocket client against
// a server written here frame by frame.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import {
  confirmationPolicy,
  normalizeServerUrl,
  startConversationBody,
} from '../../../src/host/node/remote/agent-server-api';
import { chainRemoteEvent } from '../../../src/host/node/remote/remote-chain';
import { heldActions, remoteStatus } from '../../../src/host/node/remote/remote-status';
import { openWebSocket } from '../../../src/host/node/remote/websocket-client';

describe('remote run parts', () => {
  it("a received event follows the log's head, and the server's parent goes into received_from", () => {
    const from = { server: 'http://build-box:8000', at: '2026-01-01T00:00:00.000Z' };
    assert.deepEqual(chainRemoteEvent({ id: 'a', kind: 'MessageEvent', parent_id: null }, undefined, from), {
      id: 'a',
      kind: 'MessageEvent',
      received_from: from,
    });
    assert.deepEqual(
      chainRemoteEvent({ id: 'c', kind: 'ConversationStateUpdateEvent', parent_id: 'a' }, 'b', from),
      {
        id: 'c',
        kind: 'ConversationStateUpdateEvent',
        parent_id: 'b',
        received_from: { ...from, parent_id: 'a' },
      },
    );
    assert.deepEqual(chainRemoteEvent({ id: 'd', kind: 'MessageEvent' }, 'c', from), {
      id: 'd',
      kind: 'MessageEvent',
      parent_id: 'c',
      received_from: from,
    });
  });

  it('the status comes from execution_status and full_state updates only', () => {
    const upd = (key: string, value: unknown) => ({ kind: 'ConversationStateUpdateEvent', key, value });
    assert.equal(
      remoteStatus(upd('execution_status', 'waiting_for_confirmation')),
      'waiting_for_confirmation',
    );
    assert.equal(remoteStatus(upd('full_state', { execution_status: 'finished' })), 'finished');
    assert.equal(remoteStatus(upd('execution_status', 'made-up')), undefined);
    assert.equal(remoteStatus(upd('title', 'finished')), undefined);
    assert.equal(
      remoteStatus({ kind: 'MessageEvent', key: 'execution_status', value: 'finished' }),
      undefined,
    );
  });

  it('held actions are the ones no observation, rejection or error answered', () => {
    const events = [
      { id: 'a1', kind: 'ActionEvent', tool_call_id: 'c1' },
      { id: 'o1', kind: 'ObservationEvent', action_id: 'a1' },
      { id: 'a2', kind: 'ActionEvent', tool_call_id: 'c2' },
      { id: 'a3', kind: 'ActionEvent', tool_call_id: 'c3' },
      { id: 'r3', kind: 'UserRejectObservation', action_id: 'a3' },
      { id: 'a4', kind: 'ActionEvent', tool_call_id: 'c4' },
      { id: 'e4', kind: 'AgentErrorEvent', tool_call_id: 'c4' },
    ];
    assert.deepEqual(
      heldActions(events).map((e) => e.id),
      ['a2'],
    );
  });

  it('a URL carrying credentials or not http(s) is refused; the key never goes into a URL', () => {
    assert.equal(normalizeServerUrl('http://127.0.0.1:8000/'), 'http://127.0.0.1:8000');
    assert.throws(
      () => normalizeServerUrl('http://user:secret@host:8000'),
      /LOGBOOK_REMOTE_KEY, not in the URL/,
    );
    assert.throws(() => normalizeServerUrl('file:///etc/passwd'), /must be http: or https:/);
    assert.throws(() => normalizeServerUrl('not a url'), /is not a URL/);
  });

  it("Logbook's confirmation modes map onto the server's policies; the start request asks for no title", () => {
    assert.deepEqual(confirmationPolicy('always'), { kind: 'AlwaysConfirm' });
    assert.deepEqual(confirmationPolicy('never'), { kind: 'NeverConfirm' });
    // The server's ConfirmRisky would go by the model's own rating: Logbook's rules decide instead.
    assert.deepEqual(confirmationPolicy('risky'), { kind: 'AlwaysConfirm' });
    const body = startConversationBody({
      workingDir: '/w',
      task: 'do it',
      confirmation: 'always',
      model: { model: 'gpt-x', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' },
    });
    assert.equal((body.agent as { llm: { model: string } }).llm.model, 'openai/gpt-x');
    // The server streams the reply's text only when the agent's model is set to stream.
    assert.equal((body.agent as { llm: { stream?: boolean } }).llm.stream, true);
    assert.equal(body.autotitle, false);
    assert.deepEqual(body.workspace, { working_dir: '/w' });
  });
});

/** A WebSocket server that runs `script` on each accepted socket (server frames are unmasked). */
async function wsServer(script: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Socket) => {
    if (req.url === '/refuse') {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    script(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `ws://127.0.0.1:${port}`, server };
}

function serverFrame(op: number, payload: Buffer, fin = true): Buffer {
  const head = payload.length < 126 ? Buffer.from([(fin ? 0x80 : 0) | op, payload.length]) : Buffer.alloc(4);
  if (payload.length >= 126) {
    head[0] = (fin ? 0x80 : 0) | op;
    head[1] = 126;
    head.writeUInt16BE(payload.length, 2);
  }
  return Buffer.concat([head, payload]);
}

describe('the WebSocket client', () => {
  it('joins fragments, answers a ping, reads a long frame, and reports the close code', async () => {
    const long = 'x'.repeat(300);
    const { url, server } = await wsServer((socket) => {
      socket.write(
        Buffer.concat([
          serverFrame(1, Buffer.from('hel'), false),
          serverFrame(9, Buffer.from('p')),
          serverFrame(0, Buffer.from('lo')),
          serverFrame(1, Buffer.from(long)),
          serverFrame(8, Buffer.concat([Buffer.from([0x0f, 0xa1]), Buffer.from('Authentication failed')])),
        ]),
      );
    });
    try {
      const got: string[] = [];
      const closed = new Promise<string>((resolve) => {
        void openWebSocket(url, { message: (t) => got.push(t), closed: resolve });
      });
      assert.equal(await closed, 'the server closed the event stream (4001: Authentication failed)');
      assert.deepEqual(got, ['hello', long]);
    } finally {
      server.close();
    }
  });

  it('a refused upgrade is an error naming the HTTP status', async () => {
    const { url, server } = await wsServer(() => undefined);
    try {
      await assert.rejects(
        openWebSocket(`${url}/refuse`, { message: () => undefined, closed: () => undefined }),
        /refused the event stream \(HTTP 403\)/,
      );
    } finally {
      server.close();
    }
  });

  it('a frame declared larger than 64 MiB ends the link instead of being buffered', async () => {
    const { url, server } = await wsServer((socket) => {
      const head = Buffer.alloc(10);
      head[0] = 0x81;
      head[1] = 127;
      head.writeBigUInt64BE(BigInt(2) ** BigInt(40), 2);
      socket.write(head);
    });
    try {
      const closed = new Promise<string>((resolve) => {
        void openWebSocket(url, { message: () => undefined, closed: resolve });
      });
      assert.equal(await closed, 'a message from the server was too large');
    } finally {
      server.close();
    }
  });
});
