/**
 * Cost of a call: the provider's own figure when it reports one (OpenRouter's `usage.cost`), else
 * from a price table (USD per 1M tokens, per model). Prices change and differ per provider, so the
 * table is configuration (`logbook.model.pricing`, `LOGBOOK_PRICING`); the defaults only cover a few
 * OpenAI models, and any other model's cost is unknown until it is priced there.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { CostSource, LlmUsage } from './types';

export const ModelPriceSchema = lazySchema(() =>
  z.object({
    /** USD per 1M uncached prompt tokens. */
    input: z.number().min(0),
    /** USD per 1M cached prompt tokens; the input price when absent. */
    cachedInput: z.number().min(0).optional(),
    /** USD per 1M completion tokens (reasoning tokens included, as providers bill them). */
    output: z.number().min(0),
  }),
);
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Keys are model names or name prefixes ("gpt-4o" also prices "gpt-4o-2024-08-06"). */
export const PriceTableSchema = lazySchema(() => z.record(z.string().min(1), ModelPriceSchema));
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** OpenAI list prices (standard tier) at the time of writing; `logbook.model.pricing` overrides them. */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
};

/**
 * A price table from a setting or JSON a person wrote: the valid entries, and one problem per
 * invalid one (named, so the user can fix it; a bad entry never costs the others their price).
 */
export function readPriceTable(value: unknown): { table: Record<string, ModelPrice>; problems: string[] } {
  const table: Record<string, ModelPrice> = {};
  const problems: string[] = [];
  if (value === null || value === undefined) return { table, problems };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { table, problems: ['prices must be an object keyed by model name'] };
  }
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const parsed = ModelPriceSchema.safeParse(entry);
    if (model.trim() !== '' && parsed.success) table[model] = parsed.data;
    else
      problems.push(
        `"${model.slice(0, 80)}": needs input and output (and may have cachedInput), numbers >= 0 in USD per 1M tokens`,
      );
  }
  return { table, problems };
}

/** The exact entry for `model`, else the one with the longest matching prefix, else undefined. */
export function findPrice(model: string, table: PriceTable): ModelPrice | undefined {
  const exact = table[model];
  if (exact) return exact;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** USD for one call; 0 without a price or without usage. */
export function costOf(usage: LlmUsage | null, price: ModelPrice | undefined): number {
  if (!usage || !price) return 0;
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const uncached = usage.promptTokens - cached;
  const micro =
    uncached * price.input +
    cached * (price.cachedInput ?? price.input) +
    usage.completionTokens * price.output;
  return micro / 1_000_000;
}

/** The cost of one reply and where it came from: the provider's figure wins over the price table. */
export function replyCost(
  usage: LlmUsage | null,
  price: ModelPrice | undefined,
): { cost: number; source: CostSource } {
  if (usage?.providerCost !== undefined) return { cost: usage.providerCost, source: 'provider' };
  if (price) return { cost: costOf(usage, price), source: 'price' };
  return { cost: 0, source: 'unknown' };
}
