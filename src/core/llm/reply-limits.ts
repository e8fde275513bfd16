/**
 * Bounds on one streamed attempt, so a broken or hostile endpoint can neither hold a step forever
 * nor fill memory: a no-progress timer (keep-alive comments and empty chunks do not reset it), a
 * total time limit, a size cap on the assembled reply, and a cap on one SSE line (the SDK buffers a
 * line whole before parsing it, so an endless line would grow without ever yielding a chunk).
 */
import { ModelResponse } from './model-response';

export interface ReplyLimits {
  /** Longest wait for the first byte and between two chunks that carry part of the reply. */
  noProgressMs: number;
  /** Longest the whole attempt may take, however steadily it streams. */
  replyMs: number;
  /** Largest assembled reply, in UTF-8 bytes. */
  maxBytes: number;
}

/** Why an attempt was stopped by us rather than by the server or the caller. */
export type StopReason = 'stalled' | 'too_long' | 'too_large';

/**
 * The timers of one attempt. Its `signal` fires when the caller aborts or a limit is hit; `stopped`
 * says which limit it was (undefined for the caller's abort).
 */
export class AttemptWatch {
  private readonly controller = new AbortController();
  private progressTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly totalTimer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort = () => this.controller.abort();
  stopped: StopReason | undefined;

  constructor(
    private readonly limits: ReplyLimits,
    private readonly callerSignal?: AbortSignal,
  ) {
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.totalTimer = setTimeout(() => this.stop('too_long'), limits.replyMs);
    this.progress();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Part of the reply arrived (or the response started): the no-progress timer starts over. */
  progress(): void {
    clearTimeout(this.progressTimer);
    this.progressTimer = setTimeout(() => this.stop('stalled'), this.limits.noProgressMs);
  }

  /** Stops the attempt once the reply assembled so far is over the cap. */
  checkSize(bytes: number): void {
    if (bytes > this.limits.maxBytes) this.stop('too_large');
  }

  dispose(): void {
    clearTimeout(this.progressTimer);
    clearTimeout(this.totalTimer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private stop(reason: StopReason): void {
    if (this.controller.signal.aborted) return;
    this.stopped = reason;
    this.controller.abort();
  }
}

/** Thrown into a response body whose current line outgrew the cap. */
export class SseLineTooLong extends Error {
  constructor(readonly maxBytes: number) {
    super(`one line of the event stream passed ${maxBytes} bytes`);
    this.name = 'SseLineTooLong';
  }
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * A fetch whose response bodies fail with SseLineTooLong once a line (bytes since the last CR or LF)
 * passes `maxLineBytes`. Everything else about the response is kept.
 */
export function withLineCap(base: typeof fetch, maxLineBytes: number): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    if (!res.body) return res;
    // Not a new Response: a ModelResponse keeps Node's fetch stack unloaded (model-response.ts).
    // Node's web stream (another fetch's body) is an async iterable of its chunks too.
    const body = res.body as unknown as AsyncIterable<Uint8Array>;
    const capped = new ModelResponse(lineCapped(body, maxLineBytes), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
      url: res.url,
    });
    return capped as unknown as Response;
  };
}

/**
 * The chunks as they come, failing with SseLineTooLong at the first that makes a line too long;
 * stopping early (a failure, the reader's cancel) closes the body below.
 */
async function* lineCapped(
  body: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
): AsyncGenerator<Uint8Array> {
  let run = 0;
  for await (const chunk of body) {
    let i = chunk.length - 1;
    while (i >= 0 && chunk[i] !== LF && chunk[i] !== CR) i--;
    run = i < 0 ? run + chunk.length : chunk.length - 1 - i;
    if (run > maxLineBytes) throw new SseLineTooLong(maxLineBytes);
    yield chunk;
  }
}

/**
 * Room for one SSE line: a chunk may carry a whole reply (some gateways send it in one piece) and
 * JSON escaping can make text up to six times longer.
 */
export function maxLineBytesFor(maxReplyBytes: number): number {
  return maxReplyBytes * 6 + 64 * 1024;
}
