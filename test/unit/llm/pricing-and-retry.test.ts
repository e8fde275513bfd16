import assert from 'node:assert/strict';
import {
  backoffDelayMs,
  costOf,
  DEFAULT_BACKOFF,
  DEFAULT_PRICES,
  findPrice,
  readPriceTable,
  realSleep,
  replyCost,
  retryAfterMs,
} from '../../../src/core/llm';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });

describe('pricing', () => {
  const table = {
    'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
  };

  it('matches the exact name first, then the longest prefix, else nothing', () => {
    assert.equal(findPrice('gpt-4o', table), table['gpt-4o']);
    assert.equal(findPrice('gpt-4o-mini-2024-07-18', table), table['gpt-4o-mini']);
    assert.equal(findPrice('gpt-4o-2024-08-06', table), table['gpt-4o']);
    assert.equal(findPrice('llama3.1:8b', table), undefined);
  });

  it('bills cached tokens at the cached price, falling back to the input price', () => {
    const usage = {
      promptTokens: 1_000_000,
      completionTokens: 1_000_000,
      cachedTokens: 500_000,
      reasoningTokens: 0,
    };
    assert.equal(costOf(usage, table['gpt-4o']), 0.5 * 2.5 + 0.5 * 1.25 + 10);
    assert.equal(costOf(usage, table['gpt-4o-mini']), 0.15 + 0.6);
    assert.equal(costOf(usage, undefined), 0);
    assert.equal(costOf(null, table['gpt-4o']), 0);
  });

  it('ships defaults for common OpenAI models only', () => {
    assert.ok(findPrice('gpt-4o-mini', DEFAULT_PRICES));
    assert.equal(findPrice('qwen2.5-coder:7b', DEFAULT_PRICES), undefined);
  });
});

describe('pricing from settings and from the provider', () => {
  const usage = { promptTokens: 1000, completionTokens: 500, cachedTokens: 0, reasoningTokens: 0 };

  it('reads a price table as written in logbook.model.pricing, naming each invalid entry', () => {
    const { table, problems } = readPriceTable({
      'my-model': { input: 3, cachedInput: 0.3, output: 15 },
      broken: { input: 3 },
      negative: { input: -1, output: 1 },
    });
    assert.deepEqual(table, { 'my-model': { input: 3, cachedInput: 0.3, output: 15 } });
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /"broken": needs input and output/);
    assert.deepEqual(readPriceTable(undefined), { table: {}, problems: [] });
    assert.equal(readPriceTable([1]).problems.length, 1);
  });

  it("takes the provider's cost first, then the price, and calls a reply with neither unknown", () => {
    const price = { input: 1000, output: 1000 };
    assert.deepEqual(replyCost({ ...usage, providerCost: 0.25 }, price), { cost: 0.25, source: 'provider' });
    assert.deepEqual(replyCost(usage, price), { cost: 1.5, source: 'price' });
    assert.deepEqual(replyCost(usage, undefined), { cost: 0, source: 'unknown' });
    assert.deepEqual(replyCost({ ...usage, providerCost: 0 }, undefined), { cost: 0, source: 'provider' });
  });
});

describe('retry policy', () => {
  it('doubles the delay per retry up to the cap, with equal jitter', () => {
    const policy = { ...DEFAULT_BACKOFF, initialDelayMs: 1000, maxDelayMs: 5000 };
    assert.equal(
      backoffDelayMs(0, policy, () => 0),
      500,
    );
    assert.equal(
      backoffDelayMs(0, policy, () => 0.999999),
      1000,
    );
    assert.equal(
      backoffDelayMs(1, policy, () => 0),
      1000,
    );
    assert.equal(
      backoffDelayMs(2, policy, () => 0),
      2000,
    );
    assert.equal(
      backoffDelayMs(10, policy, () => 0),
      2500,
    );
    assert.equal(
      backoffDelayMs(10, policy, () => 0.999999),
      5000,
    );
  });

  it('reads retry-after-ms, Retry-After seconds and Retry-After HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(headers({ 'retry-after-ms': '250' }), now), 250);
    assert.equal(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
    assert.equal(retryAfterMs(headers({ 'retry-after': '2' }), now), 2000);
    assert.equal(retryAfterMs(headers({ 'retry-after': '0.5' }), now), 500);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now), 7000);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), 0);
    assert.equal(retryAfterMs(headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(retryAfterMs(headers({ 'retry-after': '-3' }), now), undefined);
    assert.equal(retryAfterMs(headers({}), now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });

  it('has a sleep that an abort cuts short', async () => {
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 20);
    await assert.rejects(realSleep(10_000, ac.signal), { name: 'AbortError' });
    assert.ok(Date.now() - started < 5_000, 'the 10 s sleep was cut short');
    await realSleep(1);
  });
});
