// A long session condensed as the agent would: after each event, condense when due, through the
// real client and the scripted server; the final prompt must be small and accepted by the server.
import assert from 'node:assert/strict';
import { LlmSummarizingCondenser, ViewBuilder } from '../../../src/core/context';
import { createEvent } from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server';
import { useScriptedLlm } from '../llm/harness';
import { conversation, Ids } from './events';

const TERMINAL_TOOL = {
  type: 'function' as const,
  function: {
    name: 'terminal',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: {} },
  },
};

describe('condensing a 300-event conversation', () => {
  const h = useScriptedLlm();

  it('keeps the view under maxSize with chained summaries, and the server accepts the prompt', async () => {
    h.llm.setScenario({ name: 'long session', turns: [], fallback: { content: 'ROLLING SUMMARY' } });
    const ids = new Ids();
    const events = conversation(ids, 140, 200);
    assert.ok(events.length >= 300, `${events.length} events`);
    const maxSize = 40;
    const condenser = new LlmSummarizingCondenser({ maxSize, keepFirst: 2 });
    const client = h.client();
    const builder = new ViewBuilder();
    const requestsBefore = h.llm.completionBodies().length;
    let condensations = 0;
    for (const e of events) {
      builder.append(e);
      if (!condenser.shouldCondense(builder)) continue;
      const fields = await condenser.condense(builder, client);
      assert.ok(fields, 'a due condensation has something to forget');
      builder.append(createEvent('Condensation', fields));
      condensations++;
      assert.ok(builder.size <= maxSize / 2, `condensed to ${builder.size}`);
      assert.deepEqual(validateMessages(builder.messages()), []);
    }
    assert.ok(builder.size <= maxSize, `final view size ${builder.size}`);
    assert.ok(condensations >= 10, `${condensations} condensations`);
    assert.equal(builder.events[0]?.kind, 'SystemPromptEvent');
    assert.equal(builder.summary?.summary, 'ROLLING SUMMARY');

    const summaryRequests = h.llm.completionBodies().slice(requestsBefore);
    assert.equal(summaryRequests.length, condensations);
    summaryRequests.slice(1).forEach((body, i) => {
      const prompt = JSON.stringify(body.messages);
      assert.ok(prompt.includes('<previous_summary>\\nROLLING SUMMARY'), `summary request ${i + 1} chains`);
    });

    const reply = await client.complete({ messages: builder.messages(), tools: [TERMINAL_TOOL] });
    assert.equal(reply.content, 'ROLLING SUMMARY');
    const finalPrompt = h.llm.completionBodies().at(-1)!.messages as { role: string }[];
    assert.equal(finalPrompt.length, builder.messages().length);
  });
});
