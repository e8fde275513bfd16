// Server-sent events as the Chat Completions API frames them: `data: <json>\n\n`, ended by `data: [DONE]`.
import { type ServerResponse } from 'node:http';

export function startEventStream(res: ServerResponse, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(200, {
    ...extraHeaders,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  // Headers go out now, as a real server's do, so a client sees the response start before the first chunk.
  res.flushHeaders();
}

export function writeEvent(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

export function endEventStream(res: ServerResponse): void {
  res.end('data: [DONE]\n\n');
}
