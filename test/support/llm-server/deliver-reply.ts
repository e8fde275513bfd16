// Sends one scripted answer (a reply, possibly bent by a fault) over HTTP, streamed or not.
import { type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { type ChatRequestView } from './chat-request';
import {
  completionBody,
  type CompletionPlan,
  emptyChoicesBody,
  planCompletion,
  streamChunks,
} from './completion';
import { sendJson } from './http-io';
import { faultResponse } from './openai-errors';
import { type EndlessKind, type Fault, type Reply } from './scenario';
import { endEventStream, startEventStream, writeEvent } from './sse';

export interface DeliveryContext {
  /** Aborted when the client goes away or the server closes; every pause listens to it. */
  signal: AbortSignal;
  nextCallId: () => string;
  headers: Record<string, string>;
  /** Resolves once the test releases `name` (a reply's `holdUntilReleased`). */
  released: (name: string) => Promise<void>;
}

/**
 * Fault effects apply in this order: `slowFirstByteMs` delays everything; an error `status` (or `code`)
 * replaces the reply; `emptyChoices` replaces it with a choice-less completion; `endless` streams
 * forever; `disconnectAfterChunks` cuts the reply short and `stallAfterChunks` stops it mid-way.
 */
export async function deliverReply(
  res: ServerResponse,
  request: ChatRequestView,
  reply: Reply,
  fault: Fault | undefined,
  ctx: DeliveryContext,
): Promise<void> {
  if (reply.holdUntilReleased !== undefined)
    await untilAborted(ctx.released(reply.holdUntilReleased), ctx.signal);
  if (fault?.slowFirstByteMs) await sleep(fault.slowFirstByteMs, undefined, { signal: ctx.signal });

  if (fault && (fault.status !== undefined || fault.code !== undefined)) {
    const error = faultResponse(fault);
    sendJson(res, error.status, error.body, { ...ctx.headers, ...error.headers });
    return;
  }

  const plan = planCompletion(reply, request, ctx.nextCallId);
  if (fault?.emptyChoices) {
    if (request.stream) {
      startEventStream(res, ctx.headers);
      writeEvent(res, emptyChoicesBody(plan, true));
      endEventStream(res);
    } else {
      sendJson(res, 200, emptyChoicesBody(plan, false), ctx.headers);
    }
    return;
  }

  const delayMs = reply.delayMs ?? 0;
  if (!request.stream) {
    if (delayMs) await sleep(delayMs, undefined, { signal: ctx.signal });
    const body = completionBody(plan);
    if (fault?.disconnectAfterChunks !== undefined) await sendHalfThenDisconnect(res, body, ctx.headers);
    else sendJson(res, 200, body, ctx.headers);
    return;
  }

  if (fault?.endless) {
    startEventStream(res, ctx.headers);
    return streamForever(res, fault.endless, plan, reply.delayMs, ctx.signal);
  }

  const chunks = streamChunks(plan, request.includeUsage);
  const cutAfter = fault?.disconnectAfterChunks;
  const stallAfter = fault?.stallAfterChunks;
  startEventStream(res, ctx.headers);
  for (const [i, chunk] of chunks.entries()) {
    if (i === cutAfter) return disconnect(res);
    if (i === stallAfter) return holdOpen(ctx.signal);
    if (i > 0 && delayMs) await sleep(delayMs, undefined, { signal: ctx.signal });
    if (res.destroyed) return;
    writeEvent(res, chunk);
  }
  // Cutting after the last chunk still withholds `[DONE]`, so the stream never ends cleanly.
  if (cutAfter !== undefined) return disconnect(res);
  endEventStream(res);
}

/** `wait`, or a rejection as soon as the client goes away or the server closes. */
function untilAborted(wait: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void wait.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** Never returns on its own: ends when the client goes away or the server closes. */
function holdOpen(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Writes the same piece over and over until the client leaves. Waits for 'drain' when the socket's
 * buffer is full (the client's pace), and yields to the event loop between writes either way.
 */
async function streamForever(
  res: ServerResponse,
  kind: EndlessKind,
  plan: CompletionPlan,
  delayMs: number | undefined,
  signal: AbortSignal,
): Promise<void> {
  const piece = endlessPiece(kind, plan);
  if (kind === 'one-line') res.write('data: {"choices":[{"index":0,"delta":{"content":"');
  const pace = delayMs ?? (kind === 'keep-alive' || kind === 'empty-chunks' ? 20 : 0);
  try {
    while (!signal.aborted && !res.destroyed) {
      if (!res.write(piece)) await once(res, 'drain', { signal });
      if (pace) await sleep(pace, undefined, { signal });
      else await setImmediate(undefined, { signal });
    }
  } catch (err) {
    if (!signal.aborted) throw err;
  }
}

function endlessPiece(kind: EndlessKind, plan: CompletionPlan): string {
  const header = { id: plan.id, object: 'chat.completion.chunk', created: plan.created, model: plan.model };
  const chunk = (delta: object) =>
    `data: ${JSON.stringify({ ...header, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] })}\n\n`;
  switch (kind) {
    case 'content':
      return chunk({ content: plan.content || 'x' });
    case 'empty-chunks':
      return chunk({});
    case 'keep-alive':
      return ': keep-alive\n\n';
    case 'one-line':
      return (plan.content || 'x').repeat(16 * 1024);
  }
}

async function sendHalfThenDisconnect(res: ServerResponse, body: object, headers: Record<string, string>) {
  const text = JSON.stringify(body);
  res.writeHead(200, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  await disconnect(res);
}

/**
 * Ends the socket rather than only destroying it: `end` flushes what was already written, so the client
 * receives those chunks first and then sees the connection drop in the middle of the response.
 */
function disconnect(res: ServerResponse): Promise<void> {
  const socket = res.socket;
  if (!socket) {
    res.destroy();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    socket.end(() => {
      socket.destroy();
      resolve();
    });
  });
}
