// The demo model as an OpenAI-compatible endpoint on 127.0.0.1 (a free port), so the agent talks to
// it through the same client as to a real model. Serves POST …/chat/completions (streamed or not)
// and GET …/models; nothing else.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoReply, type DemoSurface } from './demo-model';
import type { DemoReply, DemoRequest } from './demo-wire';

import { DEMO_MODEL } from './demo-endpoint';

export { DEMO_MODEL, isDemoEndpoint } from './demo-endpoint';

/** Requests larger than this are refused: the demo reads short conversations. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface DemoServer {
  /** The base URL to give the client, ending in /v1. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startDemoServer(surface: DemoSurface): Promise<DemoServer> {
  const server = createServer((req, res) => {
    handle(req, res, surface).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(String(err)));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // An open demo connection must not keep the process alive once the work is done.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, surface: DemoSurface): Promise<void> {
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (req.method === 'GET' && path.endsWith('/models')) {
    sendJson(res, 200, { object: 'list', data: [{ id: DEMO_MODEL, object: 'model', owned_by: 'logbook' }] });
    return;
  }
  if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
    sendJson(
      res,
      404,
      errorBody(`The demo model serves POST /v1/chat/completions, not ${req.method} ${path}.`),
    );
    return;
  }
  const body = await readJson(req);
  if (!body || !Array.isArray(body.messages)) {
    sendJson(res, 400, errorBody('The request needs a messages array.'));
    return;
  }
  const reply = demoReply(body as unknown as DemoRequest, surface);
  const model = typeof body.model === 'string' ? body.model : DEMO_MODEL;
  const usage = usageOf(body, reply);
  if (body.stream === true) {
    const withUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    await stream(res, reply, model, withUsage ? usage : undefined);
  } else sendJson(res, 200, completion(reply, model, usage));
}

/** Tokens estimated from characters (about 4 each): the demo costs nothing, but the counts read right. */
function usageOf(body: Record<string, unknown>, reply: DemoReply): Usage {
  const prompt = Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
  const completion = Math.ceil(
    ((reply.content ?? '').length + JSON.stringify(reply.toolCalls ?? []).length) / 4,
  );
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

function completion(reply: DemoReply, model: string, usage: Usage): object {
  const calls = reply.toolCalls ?? [];
  return {
    ...header(model, 'chat.completion'),
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content ?? (calls.length ? null : ''),
          ...(calls.length ? { tool_calls: calls.map((c) => wireCall(c)) } : {}),
        },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage,
  };
}

async function stream(
  res: ServerResponse,
  reply: DemoReply,
  model: string,
  usage: Usage | undefined,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const head = header(model, 'chat.completion.chunk');
  const send = (delta: object, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  const calls = reply.toolCalls ?? [];
  send({ role: 'assistant', content: '' });
  for (const piece of pieces(reply.content ?? '', reply.chunkSize)) {
    send({ content: piece });
    if (reply.delayMs) await sleep(reply.delayMs);
  }
  calls.forEach((c, index) => send({ tool_calls: [{ index, ...wireCall(c) }] }));
  send({}, calls.length ? 'tool_calls' : 'stop');
  if (usage) res.write(`data: ${JSON.stringify({ ...head, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function wireCall(c: { id: string; name: string; arguments: Record<string, unknown> }): object {
  return { id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } };
}

function header(model: string, object: string): object {
  return {
    id: `chatcmpl-demo-${randomBytes(8).toString('hex')}`,
    object,
    created: Math.floor(Date.now() / 1000),
    model,
  };
}

/** Splits by code points, so no delta ends in half of a character. */
function pieces(text: string, size = 16): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function errorBody(message: string): object {
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
