import * as assert from 'node:assert/strict';
import type { Event } from '../../../src/core/events';
import type { Reply, Scenario } from '../../support/llm-server';
import { createHarness, type Harness } from '../../support/agent-harness';

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

/** A step that calls the terminal and reports the given token usage. */
const stepWithUsage = (i: number, prompt: number, completion: number): { reply: Reply } => ({
  reply: {
    toolCalls: [
      {
        id: `call_${i}`,
        name: 'terminal',
        arguments: { command: `echo ${i}`, security_risk: 'LOW', summary: 's' },
      },
    ],
    usage: { prompt, completion },
  },
});

const scenario = (turns: Scenario['turns']): Scenario => ({
  name: 'budget',
  turns,
  fallback: { content: 'Finished.', usage: { prompt: 10, completion: 10 } },
});

describe('Conversation: token and cost budgets', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('stops with token_budget once prompt + completion tokens go over maxTokens', async () => {
    h = await createHarness(scenario([stepWithUsage(1, 1000, 500)]), { maxTokens: 1200 });
    const c = await h.open();
    await c.sendMessage('spend tokens');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'token_budget');
    assert.match(err.detail, /1500 tokens, over its budget of 1200/);
    assert.equal(h.llm.completionBodies().length, 1, 'no LLM call after the budget ran out');
    assert.equal(c.state.metrics.total.promptTokens, 1000);
    assert.equal(c.state.metrics.total.completionTokens, 500);
  });

  it('counts tokens over the whole conversation and stops at the call that crosses the limit', async () => {
    h = await createHarness(
      scenario([stepWithUsage(1, 400, 100), stepWithUsage(2, 400, 100), stepWithUsage(3, 400, 100)]),
      { maxTokens: 1200 },
    );
    const c = await h.open();
    await c.sendMessage('three steps');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    assert.equal(ofKind(events, 'ConversationErrorEvent')[0]!.code, 'token_budget');
    assert.equal(h.llm.completionBodies().length, 3);
    // The first two steps ran; the third call went over, so its action was not run.
    assert.equal(ofKind(events, 'ObservationEvent').length, 2);
  });

  it('lets a run under the budget finish', async () => {
    h = await createHarness(scenario([stepWithUsage(1, 1000, 500), stepWithUsage(2, 200, 100)]), {
      maxTokens: 1850,
    });
    const c = await h.open();
    await c.sendMessage('spend a little');
    assert.equal(await c.run(), 'finished');
    assert.equal(c.state.metrics.total.promptTokens + c.state.metrics.total.completionTokens, 1820);
  });

  it('has no limit by default (maxTokens and maxCost null)', async () => {
    h = await createHarness(
      scenario([stepWithUsage(1, 100_000, 50_000), stepWithUsage(2, 100_000, 50_000)]),
      {},
      { llmSettings: { prices: { 'scripted-model': { input: 1000, output: 1000 } } } },
    );
    const c = await h.open();
    await c.sendMessage('spend a lot');
    assert.equal(await c.run(), 'finished');
    assert.ok(c.state.metrics.total.cost > 100);
  });

  it('holds across runs: resuming calls no LLM until the budget is raised', async () => {
    h = await createHarness(scenario([stepWithUsage(1, 1000, 500)]), { maxTokens: 1200 });
    const c = await h.open();
    await c.sendMessage('spend tokens');
    assert.equal(await c.run(), 'error');
    assert.equal(await c.run(), 'error');
    assert.equal(h.llm.completionBodies().length, 1);
    c.updateSettings({ maxTokens: 5000 });
    assert.equal(await c.run(), 'finished');
    assert.equal(h.llm.completionBodies().length, 2);
  });

  it('stops with cost_budget once the priced cost goes over maxCost', async () => {
    // 1000 USD per 1M tokens each way: 1000 prompt + 500 completion tokens cost 1.50 USD.
    h = await createHarness(
      scenario([stepWithUsage(1, 1000, 500)]),
      { maxCost: 1 },
      { llmSettings: { prices: { 'scripted-model': { input: 1000, output: 1000 } } } },
    );
    const c = await h.open();
    await c.sendMessage('spend money');
    assert.equal(await c.run(), 'error');
    const err = ofKind(await c.events(), 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'cost_budget');
    assert.match(err.detail, /\$1\.50, over its budget of \$1\.00\./);
    assert.equal(c.state.metrics.total.cost, 1.5);
    assert.equal(h.llm.completionBodies().length, 1);
  });

  it('does not stop a run whose cost stays under maxCost', async () => {
    h = await createHarness(
      scenario([stepWithUsage(1, 1000, 500)]),
      { maxCost: 2 },
      { llmSettings: { prices: { 'scripted-model': { input: 1000, output: 1000 } } } },
    );
    const c = await h.open();
    await c.sendMessage('spend a little money');
    assert.equal(await c.run(), 'finished');
    assert.ok(c.state.metrics.total.cost > 1.5 && c.state.metrics.total.cost < 2);
  });
});

describe('budgets: no LLM call once over budget', function () {
  this.timeout(30_000);
  it('a new message to a conversation over its token budget stops before calling the model', async () => {
    const h = await createHarness(
      { name: 'over', turns: [], fallback: { content: 'more', usage: { prompt: 1000, completion: 500 } } },
      { maxTokens: 1200 },
    );
    try {
      const c = await h.open();
      await c.sendMessage('answer');
      assert.equal(await c.run(), 'finished');
      await c.sendMessage('one more question');
      assert.equal(await c.run(), 'error');
      assert.equal(h.llm.completionBodies().length, 1);
    } finally {
      await h.close();
    }
  });
});
