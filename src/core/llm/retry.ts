/**
 * When to try a failed call again and how long to wait. Kept out of the `openai` package (its own
 * retries are off) so the policy is visible, testable with an injected sleep, and cancellable.
 */

export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  initialDelayMs: number;
  /** Cap of the exponential delay. */
  maxDelayMs: number;
  /** A server asking for a longer wait than this makes the call fail now instead of hanging. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Aborts with the signal's reason; resolves after `ms` otherwise. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Exponential delay with "equal jitter": half fixed, half random, so many clients that failed
 * together do not retry together, yet every client still waits at least half the step.
 * `retry` counts from 0; `random` returns [0, 1).
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(step / 2 + (random() * step) / 2);
}

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds, OpenAI), else `Retry-After` in
 * seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  const seconds = parseNumber(raw);
  if (seconds !== undefined) return seconds * 1000;
  // Only an IMF-fixdate ("Wed, 21 Oct 2026 07:28:00 GMT"): Date.parse also takes "-3" as a year.
  const date = /^[A-Za-z]{3}, /.test(raw) ? Date.parse(raw) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNumber(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}
