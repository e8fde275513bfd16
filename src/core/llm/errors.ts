/**
 * Turns whatever a call threw (openai APIError family, undici network errors, our own timers) into
 * an LlmError the agent can act on, plus whether trying again may help.
 */
import type { APIError } from 'openai';
import type * as OpenAiSdk from './openai-sdk';
import { isLlmError, LlmError, type LlmErrorKind } from './types';
import { redactUrlCredentials } from '../secrets/url-secrets';

export interface ClassifiedError {
  error: LlmError;
  retryable: boolean;
  /** Headers of an HTTP error, for Retry-After. */
  headers?: { get(name: string): string | null };
}

/** The SDK's error classes, from the client's own load of it (openai-sdk.ts). */
export type SdkErrors = Pick<
  typeof OpenAiSdk,
  'APIError' | 'APIConnectionError' | 'APIConnectionTimeoutError' | 'APIUserAbortError'
>;

export interface ErrorContext {
  /** Undefined when the SDK never loaded: nothing it could have thrown is then classified as its. */
  sdk: SdkErrors | undefined;
  /** The caller's signal fired. */
  aborted: boolean;
  /** Our no-progress timer fired. */
  timedOut: boolean;
  timeoutMs: number;
  /**
   * The base URL called (without credentials): errors name where the request went, which is what
   * the user can fix, rather than the model (a model name left over from another endpoint misleads).
   */
  endpoint: string;
  model: string;
  /** Strings that must never appear in a message (API key, secret header values). */
  secrets: readonly string[];
}

// Wordings used by OpenAI, Azure, vLLM, llama.cpp, Anthropic-compatible gateways and OpenRouter.
const CONTEXT_WINDOW =
  /maximum context length|context[ _]length[ _]exceeded|context window|prompt is too long|too many tokens|input (is )?too long|exceeds the (model'?s? )?context/i;

export function classifyError(err: unknown, ctx: ErrorContext): ClassifiedError {
  // An HTTP error's body may echo the key back, so it is not kept as the cause: the message
  // already carries its status, code and (redacted) text.
  const sdk = ctx.sdk;
  const cause =
    sdk && err instanceof sdk.APIError && !(err instanceof sdk.APIConnectionError) ? undefined : err;
  const make = (kind: LlmErrorKind, message: string, retryable: boolean, status?: number) => ({
    error: new LlmError(kind, redact(message, ctx.secrets), status, { cause }),
    retryable,
  });
  if (isLlmError(err)) return { error: err, retryable: false };
  const cancelled = `The request to ${ctx.endpoint} was cancelled.`;
  if (ctx.aborted) return make('aborted', cancelled, false);
  if (ctx.timedOut || (sdk && err instanceof sdk.APIConnectionTimeoutError)) {
    return make(
      'timeout',
      `${ctx.endpoint} sent nothing of the reply for ${duration(ctx.timeoutMs)}; the request timed out.`,
      true,
    );
  }
  if (sdk && err instanceof sdk.APIUserAbortError) return make('aborted', cancelled, false);
  if (sdk && err instanceof sdk.APIConnectionError) {
    return make('connection', `Could not reach ${ctx.endpoint}: ${causeText(err)}.`, true);
  }
  if (sdk && err instanceof sdk.APIError)
    return { ...classifyApiError(err, ctx, make), headers: err.headers };
  if (isNetworkError(err)) {
    return make('connection', `The connection to ${ctx.endpoint} was lost: ${causeText(err)}.`, true);
  }
  if (err instanceof SyntaxError) {
    return make('server_error', `${ctx.endpoint} sent malformed stream data: ${err.message}.`, true);
  }
  return make('connection', `The request to ${ctx.endpoint} failed: ${causeText(err)}.`, false);
}

/** "250 ms" below 10 s, whole seconds above. */
export function duration(ms: number): string {
  return ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

type Make = (kind: LlmErrorKind, message: string, retryable: boolean, status?: number) => ClassifiedError;

function classifyApiError(err: APIError, ctx: ErrorContext, make: Make): ClassifiedError {
  const status = err.status;
  const body = (err.error ?? {}) as { message?: unknown; code?: unknown };
  const providerMessage = typeof body.message === 'string' ? body.message : err.message;
  const code = err.code ?? (typeof body.code === 'string' ? body.code : undefined);
  const what = status === undefined ? 'an error in the stream' : `HTTP ${status}`;
  const message = `${ctx.endpoint} (model "${ctx.model}") answered ${what}${code ? ` (${code})` : ''}: ${providerMessage}`;

  if (code === 'context_length_exceeded' || (isClientError(status) && CONTEXT_WINDOW.test(providerMessage))) {
    return make('context_window_exceeded', message, false, status);
  }
  if (status === undefined) return make('server_error', message, true);
  if (status === 401 || status === 403) return make('auth', message, false, status);
  // insufficient_quota is a billing state, not a burst: waiting will not fix it.
  if (status === 429) return make('rate_limited', message, code !== 'insufficient_quota', status);
  if (status === 408) return make('timeout', message, true, status);
  if (status >= 500) return make('server_error', message, true, status);
  if (status === 413) return make('context_window_exceeded', message, false, status);
  return make('bad_request', message, false, status);
}

function isClientError(status: number | undefined): boolean {
  return status === undefined || (status >= 400 && status < 500);
}

const NETWORK_CODES = /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR_\w+)$/;

/** undici reports a dropped body as `TypeError: terminated` with the socket error as cause. */
function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (e instanceof TypeError && /terminated|fetch failed|network/i.test(e.message)) return true;
  }
  return false;
}

function causeText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    if (e instanceof Error) {
      // "Connection error." then "fetch failed": joined as one sentence, without the inner stop.
      const text = e.message.replace(/\.$/, '');
      if (!parts.includes(text) && text) parts.push(text);
      e = e.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(': ') || 'unknown error';
}

/** Replaces every occurrence of each secret (4+ characters), and any URL's `user:password@`, by "[redacted]". */
export function redact(text: string, secrets: readonly string[]): string {
  let out = redactUrlCredentials(text);
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}
