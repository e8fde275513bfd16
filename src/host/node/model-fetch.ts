/**
 * The model client's fetch in the CLI: one request on `node:http`/`node:https` for the common case
 * (a string body, a URL without credentials, an answer that is not a redirect). Node's own fetch
 * cost a short `logbook run` about 70 ms more CPU time for the same request (its HTTP parser is
 * WebAssembly, compiled on first use, and its dispatcher is set up). The rest goes to Node's fetch
 * unchanged (a redirect is asked again there, so it is followed, with credentials dropped across
 * origins, exactly as before). Failures look like Node's fetch's to the SDK and to classifyError: `TypeError('fetch failed')` before the answer, `TypeError('terminated')`
 * when the body breaks off, the signal's AbortError when aborted. Its answer is a ModelResponse with
 * a HeaderList, not Node's Response and Headers: their first use loads Node's fetch stack all the same.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { HeaderList, type HeaderListInit } from '../../core/llm/header-list';
import { ModelResponse } from '../../core/llm/model-response';

/** Statuses Node's fetch answers by asking again elsewhere. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `fallback` is Node's fetch unless given (read when first needed: reading it loads Node's fetch). */
export function modelFetch(fallback?: typeof fetch): typeof fetch {
  const other: typeof fetch = (input, init) => (fallback ?? globalThis.fetch)(input, init);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    const body = init?.body ?? '';
    if (url === undefined || typeof body !== 'string' || !plainHttp(url)) return other(input, init);
    const res = await send(url, init ?? {}, body);
    if (REDIRECTS.has(res.statusCode ?? 0) && res.headers.location) {
      res.destroy();
      return other(input, init);
    }
    return asResponse(res, url, init?.signal ?? undefined);
  };
}

/**
 * An http(s) URL without credentials: Node's fetch refuses one with `user:password@` (a TypeError
 * naming the URL, which the client redacts), so such a URL still fails as it did.
 */
function plainHttp(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.username && !parsed.password
  );
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

async function send(url: string, init: RequestInit, body: string): Promise<IncomingMessage> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const { request } = /^https:/i.test(url) ? await import('node:https') : await import('node:http');
  const headers: Record<string, string> = {};
  new HeaderList(init.headers as HeaderListInit).forEach((value, name) => (headers[name] = value));
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body !== '' || init.method?.toUpperCase() === 'POST')
    headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers });
    const onAbort = () => req.destroy(abortReason(signal!) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(res);
    });
    req.once('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err }));
    });
    req.end(body);
  });
}

async function asResponse(
  res: IncomingMessage,
  url: string,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const headers = new HeaderList();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 0;
  // Node's fetch gives no body for these statuses (Response refuses one).
  const nullBody = status === 101 || status === 204 || status === 205 || status === 304;
  if (nullBody) res.resume();
  const decoded = nullBody ? undefined : await decodedBody(res, headers.get('content-encoding'));
  if (decoded !== res) {
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  const answer = new ModelResponse(decoded ? bodyChunks(res, decoded, signal) : null, {
    status,
    statusText: res.statusMessage ?? '',
    headers,
    url,
  });
  return answer as unknown as Response;
}

/** The body with its content coding undone (none, or one Node's fetch undoes). */
async function decodedBody(res: IncomingMessage, coding: string | null): Promise<Readable> {
  const c = coding?.trim().toLowerCase();
  if (!c || c === 'identity') return res;
  const zlib = await import('node:zlib');
  const decoder =
    c === 'gzip' || c === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : c === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : c === 'br'
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : undefined;
  if (!decoder) return res; // as Node's fetch: an unknown coding is passed on as it came
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * The body as chunks, each read when the reader asks for it (the body is paused in between). It
 * fails with `TypeError('terminated')` when the connection breaks off before its end, with the
 * signal's reason when aborted (chunks not yet read are dropped then, as a web stream drops them);
 * a reader that stops early closes the connection.
 */
function bodyChunks(
  res: IncomingMessage,
  body: Readable,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failure: { reason: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onAbort = () => fail(abortReason(signal!));
  const detach = () => signal?.removeEventListener('abort', onAbort);
  const fail = (reason: unknown) => {
    if (ended || failure) return;
    failure = { reason };
    queue.length = 0;
    detach();
    res.destroy();
    notify();
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  body.on('data', (chunk: Buffer) => {
    if (ended || failure) return;
    queue.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    body.pause();
    notify();
  });
  body.once('end', () => {
    if (ended || failure) return;
    ended = true;
    detach();
    notify();
  });
  const broken = (err?: unknown) => fail(new TypeError('terminated', { cause: err }));
  body.once('error', broken);
  res.once('close', () => {
    if (!res.complete) broken(Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }));
  });
  const chunks: AsyncIterableIterator<Uint8Array> = {
    async next() {
      for (;;) {
        if (failure) throw failure.reason;
        const chunk = queue.shift();
        if (chunk) return { done: false, value: chunk };
        if (ended) return { done: true, value: undefined };
        const woken = new Promise<void>((resolve) => (wake = resolve));
        body.resume();
        await woken;
      }
    },
    async return() {
      if (!ended && !failure) {
        ended = true;
        queue.length = 0;
        detach();
        res.destroy();
      }
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => chunks,
  };
  return chunks;
}
