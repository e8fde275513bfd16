import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { type Event, parseEvent } from '../../../src/core/events';
import type { LlmResponse } from '../../../src/core/llm/types';
import {
  deriveState,
  latencyP50,
  llmUsageValue,
  LlmUsageValueSchema,
  RECENT_LATENCIES,
} from '../../../src/core/state';
import { LogBuilder } from './builders';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'openhands', 'real-events.jsonl');

function fixtureEvents(): Event[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, index) => {
      const r = parseEvent(line, { index });
      if (!r.ok) throw new Error(r.error.message);
      return r.event;
    });
}

function stats(
  usages: Record<string, { prompt: number; completion: number; cached?: number; cost?: number }>,
) {
  const usage_to_metrics: Record<string, unknown> = {};
  for (const [id, u] of Object.entries(usages)) {
    usage_to_metrics[id] = {
      model_name: `model-${id}`,
      accumulated_cost: u.cost ?? 0,
      accumulated_token_usage: {
        prompt_tokens: u.prompt,
        completion_tokens: u.completion,
        cache_read_tokens: u.cached ?? 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
      },
    };
  }
  return { usage_to_metrics };
}

describe('state: metrics', () => {
  it('adds llm_usage updates per usage id and in total', () => {
    const b = new LogBuilder();
    b.usage('agent', {
      prompt_tokens: 100,
      completion_tokens: 10,
      cached_tokens: 40,
      cost: 0.5,
      latency_ms: 300,
    });
    b.usage('agent', {
      prompt_tokens: 200,
      completion_tokens: 20,
      cached_tokens: 60,
      cost: 0.25,
      latency_ms: 100,
    });
    b.usage('condenser', {
      model: 'small',
      prompt_tokens: 7,
      completion_tokens: 3,
      reasoning_tokens: 9,
      cost: 0,
    });
    const m = deriveState(b.events).metrics;
    const agent = m.byUsage.agent!;
    assert.equal(agent.promptTokens, 300);
    assert.equal(agent.completionTokens, 30);
    assert.equal(agent.cachedTokens, 100);
    assert.equal(agent.reasoningTokens, 2);
    assert.equal(agent.cost, 0.75);
    assert.equal(agent.calls, 2);
    assert.deepEqual(agent.latency, { count: 2, totalMs: 400, maxMs: 300, recentMs: [300, 100] });
    assert.equal(m.byUsage.condenser!.model, 'small');
    assert.deepEqual(m.total, {
      promptTokens: 307,
      completionTokens: 33,
      cachedTokens: 102,
      cacheWriteTokens: 0,
      reasoningTokens: 11,
      cost: 0.75,
      calls: 3,
    });
    assert.deepEqual(Object.keys(m.byUsage), ['agent', 'condenser']);
  });

  it('totals equal the sums of the calls (property)', () => {
    const call = fc.record({
      usage: fc.constantFrom('agent', 'condenser', 'critic'),
      prompt: fc.nat(100_000),
      completion: fc.nat(10_000),
      cents: fc.nat(1000),
      latency: fc.nat(60_000),
    });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 40 }), (calls) => {
        const b = new LogBuilder();
        for (const c of calls) {
          b.usage(c.usage, {
            prompt_tokens: c.prompt,
            completion_tokens: c.completion,
            cost: c.cents / 100,
            latency_ms: c.latency,
          });
        }
        const m = deriveState(b.events).metrics;
        assert.equal(m.total.calls, calls.length);
        assert.equal(
          m.total.promptTokens,
          calls.reduce((n, c) => n + c.prompt, 0),
        );
        for (const id of ['agent', 'condenser', 'critic']) {
          const mine = calls.filter((c) => c.usage === id);
          const u = m.byUsage[id];
          if (mine.length === 0) assert.equal(u, undefined);
          else {
            assert.equal(
              u!.completionTokens,
              mine.reduce((n, c) => n + c.completion, 0),
            );
            assert.equal(u!.latency.maxMs, Math.max(...mine.map((c) => c.latency)));
            assert.ok(Math.abs(u!.cost - mine.reduce((n, c) => n + c.cents / 100, 0)) < 1e-9);
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('latency: p50 over the recent window, which is bounded', () => {
    const b = new LogBuilder();
    for (const ms of [50, 10, 40, 20]) b.usage('agent', { latency_ms: ms });
    assert.equal(latencyP50(deriveState(b.events).metrics.byUsage.agent!.latency), 30);
    b.usage('agent', { latency_ms: 30 });
    assert.equal(latencyP50(deriveState(b.events).metrics.byUsage.agent!.latency), 30);
    for (let i = 0; i < RECENT_LATENCIES + 10; i++) b.usage('agent', { latency_ms: 1000 + i });
    const l = deriveState(b.events).metrics.byUsage.agent!.latency;
    assert.equal(l.recentMs.length, RECENT_LATENCIES);
    assert.equal(l.recentMs[RECENT_LATENCIES - 1], 1000 + RECENT_LATENCIES + 9);
    assert.equal(l.count, 5 + RECENT_LATENCIES + 10);
    assert.equal(latencyP50({ count: 0, totalMs: 0, maxMs: 0, recentMs: [] }), null);
  });

  it('an invalid llm_usage value changes nothing and warns', () => {
    const b = new LogBuilder();
    b.usage('agent', { prompt_tokens: -1 });
    b.update('llm_usage', { usage_id: 'agent' });
    b.update('llm_usage', 'nope');
    const s = deriveState(b.events);
    assert.deepEqual(s.metrics.byUsage, {});
    assert.equal(s.warnings.length, 3);
  });

  it('llmUsageValue builds a schema-valid value from an LlmResponse', () => {
    const res: LlmResponse = {
      id: 'resp-1',
      model: 'gpt-x',
      content: '',
      reasoning: null,
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 11, completionTokens: 7, cachedTokens: 3, reasoningTokens: 2 },
      cost: 0.01,
      latencyMs: 250,
    };
    const v = llmUsageValue('agent', res);
    assert.deepEqual(LlmUsageValueSchema.parse(v), v);
    assert.equal(v.response_id, 'resp-1');
    assert.equal(llmUsageValue('agent', { ...res, usage: null }).prompt_tokens, 0);
  });

  it('OpenHands stats are absolute totals per usage id, not increments', () => {
    const b = new LogBuilder();
    b.update('stats', stats({ default: { prompt: 100, completion: 10, cost: 0.1 } }));
    b.update('stats', stats({ default: { prompt: 250, completion: 30, cached: 5, cost: 0.3 } }));
    b.update('stats', stats({ default: { prompt: 250, completion: 30, cached: 5, cost: 0.3 } })); // no call
    const u = deriveState(b.events).metrics.byUsage.default!;
    assert.equal(u.promptTokens, 250);
    assert.equal(u.completionTokens, 30);
    assert.equal(u.cachedTokens, 5);
    assert.equal(u.cost, 0.3);
    assert.equal(u.model, 'model-default');
    assert.equal(u.calls, 2, 'one call per update that raised the totals');
  });

  it('-0 in a stats value becomes 0, so the state survives a JSON round trip deep-equal', () => {
    // Parsed from text: createEvent's JSON copy would already have turned -0 into 0.
    const r = parseEvent(
      '{"id":"00000000-0000-4000-8000-000000000001","timestamp":"2026-01-01T00:00:00Z","source":"environment",' +
        '"key":"stats","value":{"usage_to_metrics":{"a":{"accumulated_cost":-0,' +
        '"accumulated_token_usage":{"prompt_tokens":-0}}}},"kind":"ConversationStateUpdateEvent"}',
    );
    if (!r.ok) assert.fail(r.error.message);
    const s = deriveState([r.event]);
    assert.ok(Object.is(s.metrics.byUsage.a!.cost, 0));
    assert.ok(Object.is(s.metrics.byUsage.a!.promptTokens, 0));
    assert.deepStrictEqual(JSON.parse(JSON.stringify(s)), s);
  });

  it('stats with response_latencies take calls and latencies from that list (seconds)', () => {
    const b = new LogBuilder();
    const value = stats({ agent: { prompt: 1, completion: 1 } });
    (value.usage_to_metrics.agent as Record<string, unknown>).response_latencies = [
      { latency: 1.5, response_id: 'a' },
      { latency: 0.5, response_id: 'b' },
      { latency: 2, response_id: 'c' },
    ];
    b.update('stats', value);
    const u = deriveState(b.events).metrics.byUsage.agent!;
    assert.equal(u.calls, 3);
    assert.deepEqual(u.latency, { count: 3, totalMs: 4000, maxMs: 2000, recentMs: [1500, 500, 2000] });
  });

  it('an invalid stats value warns', () => {
    const b = new LogBuilder();
    b.update('stats', { usage_to_metrics: { x: { accumulated_cost: 'free' } } });
    assert.equal(deriveState(b.events).warnings.length, 1);
  });

  it('the real OpenHands fixture derives a sensible state', () => {
    const events = fixtureEvents();
    const s = deriveState(events, { id: 'e18b827d' });
    assert.equal(s.status, 'running');
    assert.equal(s.eventCount, 10);
    assert.equal(s.head, events[9]!.id);
    assert.equal(s.createdAt, '2026-06-16T05:39:18.809928');
    assert.equal(s.updatedAt, events[9]!.timestamp);
    assert.equal(s.iteration, 2, 'two distinct llm_response_ids');
    assert.deepEqual(s.pendingActions, [], 'both actions are answered');
    const d = s.metrics.byUsage.default!;
    assert.equal(d.model, 'litellm_proxy/minimax-m2.7');
    assert.equal(d.promptTokens, 107458);
    assert.equal(d.completionTokens, 1347);
    assert.equal(d.cachedTokens, 68193);
    assert.equal(d.calls, 4, 'four stats updates, each raising the totals');
    assert.equal(s.metrics.byUsage.condenser!.calls, 0);
    assert.equal(s.metrics.total.promptTokens, 107458);
    assert.equal(s.metrics.total.cost, 0);
    // The excerpt holds an observation whose action is not in it: reported, not fatal.
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0]!, /8df85183-1da3-4677-ad2e-eb87d6f33809 answers no pending action/);
    assert.equal(s.title, null, 'the excerpt has no user message');
  });
});
