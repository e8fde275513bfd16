// The core's second line of defence: whatever the model says, a secret the host named is neither
// appended (log, state, next prompt) nor shown while the reply streams in.
import * as assert from 'node:assert/strict';
import { Conversation } from '../../../src/core/agent/conversation';
import type { StoredConversationEvent } from '../../../src/core/agent/event-codec';
import type { LlmCallOptions, LlmClient, LlmDelta, LlmRequest, LlmResponse } from '../../../src/core/llm';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import type { ToolPorts } from '../../../src/core/tools';

const KEY = 'sk-conv-9f8e7d6c5b4a3210';
const MARKER = '[redacted API key]';

/** Streams its reply 4 characters at a time (so the key is split) and records the prompts. */
class LeakyModel implements LlmClient {
  readonly model = 'leaky';
  readonly prompts: string[] = [];
  async complete(req: LlmRequest, opts?: LlmCallOptions): Promise<LlmResponse> {
    this.prompts.push(JSON.stringify(req.messages));
    const content = `The key is ${KEY}. Again: ${KEY}`;
    for (let i = 0; i < content.length; i += 4)
      opts?.onDelta?.({ type: 'text', text: content.slice(i, i + 4) });
    return {
      id: `resp-${this.prompts.length}`,
      model: this.model,
      content,
      reasoning: `thinking about ${KEY}`,
      toolCalls: [],
      finishReason: 'stop',
      usage: null,
      cost: 0,
      latencyMs: 1,
    };
  }
}

describe('Conversation: secrets the host names are redacted before they are appended or shown', () => {
  it('redacts the model`s text and reasoning in the log, the next prompt and the streamed deltas', async () => {
    const store = new MemoryEventStore<StoredConversationEvent>();
    const llm = new LeakyModel();
    const c = await Conversation.open({
      id: 'secrets',
      store,
      llm,
      tools: [],
      ports: {} as ToolPorts,
      cwd: '/',
      gate: { decide: () => [] },
      secrets: () => [{ name: 'API key', value: KEY }],
    });
    const streamed: LlmDelta[] = [];
    c.onDelta((d) => {
      if (d.type !== 'end') streamed.push(d);
    });
    await c.sendMessage(`My key is ${KEY}, keep it safe`);
    assert.equal(await c.run(), 'finished');
    await c.sendMessage('once more');
    assert.equal(await c.run(), 'finished');

    const log = JSON.stringify(await c.events());
    assert.ok(!log.includes(KEY), 'the log holds no key');
    assert.ok(log.includes(`My key is ${MARKER}, keep it safe`));
    assert.ok(log.includes(`The key is ${MARKER}. Again: ${MARKER}`));
    assert.ok(log.includes(`thinking about ${MARKER}`));
    assert.ok(!llm.prompts[1]!.includes(KEY), 'the next prompt holds no key');
    assert.ok(llm.prompts[1]!.includes(MARKER));
    const text = streamed.map((d) => (d.type === 'text' ? d.text : '')).join('');
    assert.equal(text, `The key is ${MARKER}. Again: ${MARKER}`.repeat(2));
  });
});
