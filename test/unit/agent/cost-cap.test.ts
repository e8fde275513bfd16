import * as assert from 'node:assert/strict';
import type { Event } from '../../../src/core/events';
import { COST_UNKNOWN_KEY } from '../../../src/core/agent/cost-cap';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { MemoryEventStore } from '../../../src/core/log';
import type { Reply, Scenario } from '../../support/llm-server';
import { createHarness, type Harness } from '../../support/agent-harness';

const ofKind = <K extends Event['kind']>(events: readonly Event[], k: K) =>
  events.filter((e): e is Extract<Event, { kind: K }> => e.kind === k);

const notices = (events: readonly Event[]) =>
  ofKind(events, 'ConversationStateUpdateEvent').filter((e) => e.key === COST_UNKNOWN_KEY);

/** A step that calls the terminal and reports the given usage (and, when given, the provider's cost). */
const step = (i: number, prompt: number, completion: number, cost?: number): { reply: Reply } => ({
  reply: {
    toolCalls: [
      {
        id: `call_${i}`,
        name: 'terminal',
        arguments: { command: `echo ${i}`, security_risk: 'LOW', summary: 's' },
      },
    ],
    usage: { prompt, completion, ...(cost !== undefined ? { cost } : {}) },
  },
});

const scenario = (turns: Scenario['turns'], fallbackCost?: number): Scenario => ({
  name: 'cost-cap',
  turns,
  fallback: {
    content: 'Finished.',
    usage: { prompt: 10, completion: 10, ...(fallbackCost !== undefined ? { cost: fallbackCost } : {}) },
  },
});

// "scripted-model" is in no price table: its cost is unknown unless the provider reports one.
describe('Conversation: a cost cap on a model whose cost is unknown', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('says so once and stops on the token budget instead', async () => {
    h = await createHarness(scenario([step(1, 300, 100), step(2, 300, 100), step(3, 300, 100)]), {
      maxCost: 0.01,
      maxTokens: 1000,
    });
    const c = await h.open();
    await c.sendMessage('spend tokens on an unpriced model');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    const said = notices(events);
    assert.equal(said.length, 1, 'said once, not after every reply');
    const value = said[0]!.value as Record<string, unknown>;
    assert.equal(value['model'], 'scripted-model');
    assert.equal(value['max_cost'], 0.01);
    assert.equal(value['max_tokens'], 1000);
    assert.match(String(value['message']), /cost of model "scripted-model" is unknown/);
    assert.match(String(value['message']), /token budget of 1000 tokens is enforced instead/);
    // Said right after the first reply, before anything of it ran.
    const usageAt = events.findIndex(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'llm_usage',
    );
    assert.equal(events.indexOf(said[0]!), usageAt + 1);
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'token_budget');
    assert.equal(h.llm.completionBodies().length, 3);
    assert.equal(c.state.metrics.total.cost, 0);
  });

  it('says it once per conversation, also after the conversation is opened again', async () => {
    h = await createHarness(scenario([step(1, 300, 100)]), { maxCost: 0.01 });
    const store = new MemoryEventStore<StoredConversationEvent>();
    const first = await h.open({ store });
    await first.sendMessage('spend');
    assert.equal(await first.run(), 'finished');
    assert.equal(notices(await first.events()).length, 1);
    const reopened = await h.open({ store });
    await reopened.sendMessage('spend again');
    assert.equal(await reopened.run(), 'finished');
    assert.equal(notices(await reopened.events()).length, 1, 'the log already says it');
    assert.deepEqual(reopened.state.costUnknownModels, ['scripted-model']);
  });

  it('says the cost cap cannot be enforced when no token budget is set', async () => {
    h = await createHarness(scenario([step(1, 300, 100), step(2, 300, 100)]), { maxCost: 0.01 });
    const c = await h.open();
    await c.sendMessage('spend');
    assert.equal(await c.run(), 'finished');
    const said = notices(await c.events());
    assert.equal(said.length, 1);
    const value = said[0]!.value as Record<string, unknown>;
    assert.equal(value['max_tokens'], null);
    assert.match(String(value['message']), /cost cap cannot be enforced for this model/);
  });

  it('says nothing without a cost cap', async () => {
    h = await createHarness(scenario([step(1, 300, 100)]), { maxTokens: 100_000 });
    const c = await h.open();
    await c.sendMessage('spend');
    assert.equal(await c.run(), 'finished');
    assert.equal(notices(await c.events()).length, 0);
  });

  it("counts the provider's reported cost (usage.cost) and stops on the cost cap", async () => {
    h = await createHarness(
      scenario([step(1, 300, 100, 0.4), step(2, 300, 100, 0.4), step(3, 300, 100, 0.4)]),
      {
        maxCost: 0.5,
      },
    );
    const c = await h.open();
    await c.sendMessage('spend on a provider that reports cost');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    assert.equal(notices(events).length, 0, 'the cost is known');
    const err = ofKind(events, 'ConversationErrorEvent')[0]!;
    assert.equal(err.code, 'cost_budget');
    assert.match(err.detail, /\$0\.80, over its budget of \$0\.50\./);
    assert.equal(h.llm.completionBodies().length, 2);
    assert.equal(c.state.metrics.total.cost, 0.8);
  });

  it("prefers the provider's cost to the price table", async () => {
    h = await createHarness(
      scenario([step(1, 1000, 500, 0.25)], 0),
      { maxCost: 10 },
      { llmSettings: { prices: { 'scripted-model': { input: 1000, output: 1000 } } } },
    );
    const c = await h.open();
    await c.sendMessage('spend');
    assert.equal(await c.run(), 'finished');
    assert.equal(c.state.metrics.total.cost, 0.25);
  });

  it('uses the configured price of a model no default covers, and says nothing', async () => {
    // 1000 USD per 1M tokens each way: 1000 prompt + 500 completion tokens cost 1.50 USD.
    h = await createHarness(
      scenario([step(1, 1000, 500)]),
      { maxCost: 1 },
      { llmSettings: { prices: { 'scripted-model': { input: 1000, output: 1000 } } } },
    );
    const c = await h.open();
    await c.sendMessage('spend');
    assert.equal(await c.run(), 'error');
    const events = await c.events();
    assert.equal(notices(events).length, 0);
    assert.equal(ofKind(events, 'ConversationErrorEvent')[0]!.code, 'cost_budget');
    assert.equal(c.state.metrics.total.cost, 1.5);
  });
});
