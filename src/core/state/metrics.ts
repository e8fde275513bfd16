/**
 * LLM usage metrics from two kinds of ConversationStateUpdateEvent:
 * - `llm_usage` (Logbook): one per LLM call, with that call's numbers; added up here.
 * - `stats` (OpenHands): `usage_to_metrics` with *accumulated* numbers per usage id; taken as the
 *   absolute totals of that usage id at that point.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { LlmResponse } from '../llm/types';
import {
  emptyTotals,
  type LatencyStats,
  type Metrics,
  RECENT_LATENCIES,
  type TokenTotals,
  type UsageMetrics,
} from './conversation-state';

export const LLM_USAGE_KEY = 'llm_usage';
export const STATS_KEY = 'stats';

const count = lazySchema(() => z.number().int().nonnegative());
const amount = lazySchema(() => z.number().nonnegative()); // zod 4 numbers are finite: no NaN/Infinity in the state

/** Value of the `llm_usage` update the runtime appends after each LLM call. */
export const LlmUsageValueSchema = lazySchema(() =>
  z.looseObject({
    usage_id: z.string().min(1),
    model: z.string(),
    prompt_tokens: count,
    completion_tokens: count,
    cached_tokens: count.default(0),
    reasoning_tokens: count.default(0),
    cache_write_tokens: count.optional(),
    /** USD */
    cost: amount.default(0),
    latency_ms: amount,
    response_id: z.string().nullable().optional(),
  }),
);
export type LlmUsageValue = z.output<typeof LlmUsageValueSchema>;

/** The `llm_usage` value for one LLM response (what the runtime appends after `complete`). */
export function llmUsageValue(usageId: string, res: LlmResponse): LlmUsageValue {
  return {
    usage_id: usageId,
    model: res.model,
    prompt_tokens: res.usage?.promptTokens ?? 0,
    completion_tokens: res.usage?.completionTokens ?? 0,
    cached_tokens: res.usage?.cachedTokens ?? 0,
    reasoning_tokens: res.usage?.reasoningTokens ?? 0,
    cost: res.cost,
    latency_ms: res.latencyMs,
    response_id: res.id,
  };
}

const maybeAmount = lazySchema(() => amount.nullish());

const OpenHandsTokenUsageSchema = lazySchema(() =>
  z.looseObject({
    model: z.string().nullish(),
    prompt_tokens: maybeAmount,
    completion_tokens: maybeAmount,
    cache_read_tokens: maybeAmount,
    cache_write_tokens: maybeAmount,
    reasoning_tokens: maybeAmount,
  }),
);

const OpenHandsMetricsSchema = lazySchema(() =>
  z.looseObject({
    model_name: z.string().nullish(),
    accumulated_cost: maybeAmount,
    accumulated_token_usage: OpenHandsTokenUsageSchema.nullish(),
    /** Present in full OpenHands metrics dumps; latency in seconds. */
    response_latencies: z.array(z.looseObject({ latency: amount })).nullish(),
  }),
);

/** Value of OpenHands' `stats` update (ConversationStats). */
export const StatsValueSchema = lazySchema(() =>
  z.looseObject({
    usage_to_metrics: z.record(z.string(), OpenHandsMetricsSchema),
  }),
);
export type StatsValue = z.output<typeof StatsValueSchema>;

/** Adds one call. Returns null (and the caller warns) when the value is not a valid `llm_usage`. */
export function applyLlmUsage(metrics: Metrics, value: unknown): Metrics | null {
  const parsed = LlmUsageValueSchema.safeParse(value);
  if (!parsed.success) return null;
  const v = parsed.data;
  const prev = usageOf(metrics, v.usage_id);
  const next: UsageMetrics = {
    usageId: v.usage_id,
    model: v.model,
    promptTokens: prev.promptTokens + v.prompt_tokens,
    completionTokens: prev.completionTokens + v.completion_tokens,
    cachedTokens: prev.cachedTokens + v.cached_tokens,
    cacheWriteTokens: prev.cacheWriteTokens + (v.cache_write_tokens ?? 0),
    reasoningTokens: prev.reasoningTokens + v.reasoning_tokens,
    cost: plain(prev.cost + v.cost),
    calls: prev.calls + 1,
    latency: addLatency(prev.latency, plain(v.latency_ms)),
  };
  return withUsage(metrics, next);
}

/**
 * Sets each usage id's totals to the accumulated numbers. OpenHands stats carry no call count:
 * it emits one update after every completion, so an update that raises a usage's totals counts as
 * one call, unless `response_latencies` is present, which lists the calls themselves.
 */
export function applyStats(metrics: Metrics, value: unknown): Metrics | null {
  const parsed = StatsValueSchema.safeParse(value);
  if (!parsed.success) return null;
  let out = metrics;
  for (const [usageId, m] of Object.entries(parsed.data.usage_to_metrics)) {
    const prev = usageOf(out, usageId);
    const t = m.accumulated_token_usage;
    const totals: Omit<TokenTotals, 'calls'> = {
      promptTokens: plain(t?.prompt_tokens),
      completionTokens: plain(t?.completion_tokens),
      cachedTokens: plain(t?.cache_read_tokens),
      cacheWriteTokens: plain(t?.cache_write_tokens),
      reasoningTokens: plain(t?.reasoning_tokens),
      cost: plain(m.accumulated_cost),
    };
    const latencies = m.response_latencies;
    let calls = prev.calls;
    let latency = prev.latency;
    if (latencies) {
      calls = latencies.length;
      latency = latencies.reduce((l, r) => addLatency(l, plain(r.latency * 1000)), emptyLatency());
    } else if (raisesTotals(prev, totals)) {
      calls += 1;
    }
    const model = m.model_name ?? t?.model ?? prev.model;
    out = withUsage(out, { ...prev, ...totals, usageId, model, calls, latency });
  }
  return out;
}

/** Median of the recent latencies, or null before the first call. */
export function latencyP50(latency: LatencyStats): number | null {
  const sorted = [...latency.recentMs].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function emptyLatency(): LatencyStats {
  return { count: 0, totalMs: 0, maxMs: 0, recentMs: [] };
}

function addLatency(l: LatencyStats, ms: number): LatencyStats {
  const recentMs = l.recentMs.length < RECENT_LATENCIES ? [...l.recentMs, ms] : [...l.recentMs.slice(1), ms];
  return { count: l.count + 1, totalMs: plain(l.totalMs + ms), maxMs: Math.max(l.maxMs, ms), recentMs };
}

function raisesTotals(prev: TokenTotals, next: Omit<TokenTotals, 'calls'>): boolean {
  return (
    next.promptTokens > prev.promptTokens ||
    next.completionTokens > prev.completionTokens ||
    next.cachedTokens > prev.cachedTokens ||
    next.reasoningTokens > prev.reasoningTokens ||
    next.cost > prev.cost
  );
}

function usageOf(metrics: Metrics, usageId: string): UsageMetrics {
  if (Object.hasOwn(metrics.byUsage, usageId)) return metrics.byUsage[usageId]!;
  return { usageId, model: null, ...emptyTotals(), latency: emptyLatency() };
}

function withUsage(metrics: Metrics, usage: UsageMetrics): Metrics {
  const byUsage = { ...metrics.byUsage, [usage.usageId]: usage };
  return { byUsage, total: sumTotals(Object.values(byUsage)) };
}

function sumTotals(usages: readonly UsageMetrics[]): TokenTotals {
  const t = emptyTotals();
  for (const u of usages) {
    t.promptTokens += u.promptTokens;
    t.completionTokens += u.completionTokens;
    t.cachedTokens += u.cachedTokens;
    t.cacheWriteTokens += u.cacheWriteTokens;
    t.reasoningTokens += u.reasoningTokens;
    t.cost += u.cost;
    t.calls += u.calls;
  }
  return t;
}

/** null/undefined -> 0, and -0 -> 0 (JSON writes -0 as 0, so a snapshot would not restore equal). */
function plain(n: number | null | undefined): number {
  return (n ?? 0) + 0;
}
