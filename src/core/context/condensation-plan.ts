/**
 * Which events a condensation forgets: never the first `keepFirst` (system prompt, task), never
 * half of a tool call, and only whole segments between safe cuts. The kept view becomes
 * head + summary + tail.
 */
import type { LlmConvertibleEvent } from '../events';
import { safeCuts } from './boundaries';
import { estimateTokens } from './token-estimate';
import type { ViewLike } from './view';

export interface PlanLimits {
  maxSize: number;
  keepFirst: number;
  maxTokens?: number;
  minimumProgress: number;
  /** Tokens set aside for the summary itself when sizing the tail against maxTokens. */
  summaryTokens: number;
}

export type CondensationReason = 'request' | 'size' | 'tokens';

export interface CondensationPlan {
  reason: CondensationReason;
  /** In view order; real log events only (the previous summary is replaced, not forgotten). */
  forgotten: LlmConvertibleEvent[];
  /** Where the new summary goes: right after the kept head. */
  summaryOffset: number;
}

/** Why the view must be condensed now, or undefined. `force` acts like a pending request. */
export function condensationReason(
  view: ViewLike,
  limits: PlanLimits,
  force = false,
): CondensationReason | undefined {
  if (force || view.unhandledCondensationRequest) return 'request';
  if (view.size > limits.maxSize) return 'size';
  if (limits.maxTokens !== undefined && view.estimatedTokens > limits.maxTokens) return 'tokens';
  return undefined;
}

export function planCondensation(
  view: ViewLike,
  limits: PlanLimits,
  force = false,
): CondensationPlan | undefined {
  const reason = condensationReason(view, limits, force);
  if (!reason) return undefined;
  const real = view.events.filter((e) => e !== view.summary);
  const safe = safeCuts(real);
  const firstSafeFrom = (i: number) => {
    for (let j = Math.max(0, i); j <= real.length; j++) if (safe[j]) return j;
    return real.length + 1; // nothing safe: the caller finds no room
  };
  const lastSafeUpTo = (i: number, floor: number) => {
    for (let j = Math.min(i, real.length); j > floor; j--) if (safe[j]) return j;
    return floor;
  };
  const head = firstSafeFrom(Math.min(limits.keepFirst, real.length));
  if (head >= real.length) return undefined;

  let tailStart: number;
  if (reason === 'request') {
    // A context-window error: forget about half of what follows the head.
    tailStart = firstSafeFrom(head + Math.ceil((real.length - head) / 2));
  } else {
    tailStart = head;
    if (view.size > limits.maxSize) {
      // Keep at most this many: the cut moves forward to a safe point, or back if there is none.
      const keepInTail = Math.max(0, Math.floor(limits.maxSize / 2) - head - 1);
      let cut = firstSafeFrom(real.length - keepInTail);
      if (cut > real.length) cut = lastSafeUpTo(real.length - keepInTail, head);
      tailStart = Math.max(tailStart, cut);
    }
    if (limits.maxTokens !== undefined && view.estimatedTokens > limits.maxTokens) {
      tailStart = Math.max(tailStart, tokenTailStart(real, safe, head, limits));
    }
  }
  if (tailStart > real.length) return undefined;
  const forgotten = real.slice(head, tailStart);
  if (forgotten.length === 0) return undefined;
  if (reason !== 'request' && forgotten.length / view.size < limits.minimumProgress) return undefined;
  return { reason, forgotten, summaryOffset: head };
}

/** The first safe cut after which the tail fits in half the token limit, head and summary included. */
function tokenTailStart(
  real: readonly LlmConvertibleEvent[],
  safe: readonly boolean[],
  head: number,
  limits: PlanLimits,
): number {
  let headTokens = 0;
  for (let i = 0; i < head; i++) headTokens += estimateTokens(real[i]!);
  const budget = limits.maxTokens! / 2 - headTokens - limits.summaryTokens;
  // suffix[i] = tokens of real[i..]; walk from the end while the tail still fits.
  let tailTokens = 0;
  let best = real.length;
  for (let i = real.length - 1; i > head; i--) {
    tailTokens += estimateTokens(real[i]!);
    if (tailTokens > budget) break;
    if (safe[i]) best = i;
  }
  return safe[best] ? best : real.length + 1;
}
