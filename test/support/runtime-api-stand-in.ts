// Test-only: a runtime API of the tests' own, speaking the requests the OpenHands SDK's remote
// workspace makes (POST /start, GET /sessions/{id}, POST /pause and /resume, its key in X-API-Key).
// A paused session's pod is not ready until /resume.
// On /start it launches the real agent-server on this machine (test/support/agent-server.ts) and
// answers that server's URL and session key, as a cluster would answer a pod's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentServer, startAgentServer } from './agent-server';

export interface RuntimeApiStandIn {
  url: string;
  key: string;
  /** Every request received, with its X-API-Key header and parsed body. */
  requests: { method: string; path: string; apiKey: string | undefined; body: unknown }[];
  /** The servers started, by session id. */
  servers: Map<string, AgentServer>;
  close(): Promise<void>;
}

export interface StandInOptions {
  /** `never`: /start answers at once but the session stays pending and no server is started. */
  ready?: 'start' | 'never';
}

function body(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      try {
        resolve(text ? JSON.parse(text) : undefined);
      } catch {
        resolve(text);
      }
    });
  });
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

export async function startRuntimeApiStandIn(opts: StandInOptions = {}): Promise<RuntimeApiStandIn> {
  const key = `runtime-key-${Math.random().toString(36).slice(2)}`;
  const requests: RuntimeApiStandIn['requests'] = [];
  const servers = new Map<string, AgentServer>();
  const paused = new Set<string>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const apiKey = req.headers['x-api-key'] as string | undefined;
    const parsed = await body(req);
    requests.push({ method: req.method ?? '', path, apiKey, body: parsed });
    if (apiKey !== key) return send(res, 401, { detail: 'invalid API key' });
    const b = (parsed ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && path === '/start') {
      const session = String(b.session_id);
      if (opts.ready === 'never')
        return send(res, 201, {
          runtime_id: `rt-${session}`,
          url: 'http://127.0.0.1:9',
          session_api_key: 'unused',
        });
      const server = await startAgentServer();
      servers.set(session, server);
      return send(res, 201, { runtime_id: `rt-${session}`, url: server.url, session_api_key: server.key });
    }
    const session = /^\/sessions\/([^/]+)$/.exec(path)?.[1];
    if (req.method === 'GET' && session) {
      const id = decodeURIComponent(session);
      if (opts.ready === 'never') return send(res, 200, { status: 'pending', pod_status: 'pending' });
      if (!servers.has(id)) return send(res, 404, { detail: 'no such session' });
      const state = paused.has(id) ? 'paused' : 'running';
      // As the SDK reads it to find a session's runtime again: its id, URL and session key.
      const server = servers.get(id)!;
      return send(res, 200, {
        status: state,
        pod_status: state === 'running' ? 'ready' : 'paused',
        runtime_id: `rt-${id}`,
        url: server.url,
        session_api_key: server.key,
      });
    }
    if (req.method === 'POST' && (path === '/pause' || path === '/resume')) {
      const id = String(b.runtime_id).replace(/^rt-/, '');
      if (path === '/pause') paused.add(id);
      else paused.delete(id);
      return send(res, 200, {});
    }
    send(res, 404, { detail: 'not found' });
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { detail: err.message }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    requests,
    servers,
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await Promise.all([...servers.values()].map((s) => s.stop()));
    },
  };
}
