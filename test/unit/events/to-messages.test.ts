import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  type ChatMessage,
  createEvent,
  type Event,
  eventsToMessages,
  parseEvent,
} from '../../../src/core/events';
import { validateMessages } from '../../support/llm-server/validate-messages';
import { action, agentMsg, execError, failedCall, observation, reject, userMsg } from './builders';
import { chatProblems } from './chat-checker';

function project(events: Event[]): ChatMessage[] {
  const messages = eventsToMessages(events);
  assert.deepEqual(chatProblems(messages), []);
  if (messages.length > 0) assert.deepEqual(validateMessages(messages), []);
  return messages;
}

const callIds = (m: ChatMessage | undefined) =>
  m?.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [];
const shape = (ms: ChatMessage[]) => ms.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role));

describe('eventsToMessages', () => {
  it('is assignable to the openai package message params', () => {
    const ms: ChatCompletionMessageParam[] = eventsToMessages([userMsg('hi')]);
    assert.equal(ms.length, 1);
  });

  it('maps system prompt, user, and agent messages; appends extended_content', () => {
    const sys = createEvent('SystemPromptEvent', {
      system_prompt: { type: 'text', text: 'be nice' },
      tools: [],
    });
    const u = createEvent('MessageEvent', {
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      extended_content: [{ type: 'text', text: '<skill>x</skill>' }],
    });
    const ms = project([sys, u, agentMsg('hi there')]);
    assert.deepEqual(ms, [
      { role: 'system', content: 'be nice' },
      { role: 'user', content: 'hello\n<skill>x</skill>' },
      { role: 'assistant', content: 'hi there' },
    ]);
  });

  it('merges consecutive user messages and the condensation summary; images become parts', () => {
    const img = createEvent('MessageEvent', {
      llm_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image_urls: ['data:image/png;base64,AA'] },
        ],
      },
    });
    const summary = createEvent('CondensationSummaryEvent', { summary: 'earlier: stuff' });
    const ms = project([summary, userMsg('a'), img]);
    assert.equal(ms.length, 1);
    assert.deepEqual(ms[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'earlier: stuff\n\na' },
        { type: 'text', text: 'look' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
      ],
    });
  });

  it('groups a parallel batch into one assistant message with the first thought only', () => {
    const a1 = action('c1', 'r1', 'first thought');
    const a2 = action('c2', 'r1', 'ignored');
    const state = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: {} });
    const ms = project([userMsg('go'), a1, state, a2, observation(a2), observation(a1)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'tool:c2']);
    assert.equal(ms[1]?.role === 'assistant' && ms[1].content, 'first thought');
    assert.deepEqual(callIds(ms[1]), ['c1', 'c2']);
  });

  it('splits batches by llm_response_id', () => {
    const a1 = action('c1', 'r1');
    const a2 = action('c2', 'r2');
    const ms = project([userMsg('go'), a1, observation(a1), a2, observation(a2)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'assistant', 'tool:c2']);
    assert.equal(ms[1]?.role === 'assistant' && ms[1].content, null);
  });

  it('folds a failed call of a parallel batch into the batch, results after the call, in call order', () => {
    const a1 = action('c1', 'r1', 'plan');
    const a3 = action('c3', 'r1');
    const err = failedCall('c2');
    const ms = project([userMsg('go'), a1, err, a3, observation(a3), observation(a1)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'tool:c2', 'tool:c3']);
    const call2 = ms[1]?.role === 'assistant' ? ms[1].tool_calls?.[1] : undefined;
    assert.deepEqual(call2, {
      id: 'c2',
      type: 'function',
      function: { name: 'terminal', arguments: '{"cmd":1}' },
    });
    assert.equal(ms[3]?.content, 'bad arguments for c2');
  });

  it('a failed first call (OpenHands order, no llm_response_id) joins the following actions', () => {
    const a1 = action('c1', 'r1');
    const a3 = action('c3', 'r2');
    const ms = project([
      userMsg('go'),
      a1,
      observation(a1),
      failedCall('c2', undefined, false),
      a3,
      observation(a3),
    ]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'assistant', 'tool:c2', 'tool:c3']);
    const rebuilt = ms[3]?.role === 'assistant' ? ms[3].tool_calls?.[0] : undefined;
    assert.deepEqual(rebuilt?.function, { name: 'terminal', arguments: '{}' });
  });

  it('a batch made only of failed calls still shows the calls and their errors', () => {
    const ms = project([userMsg('go'), failedCall('c1', 'r1'), failedCall('c2', 'r1')]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'tool:c2']);
  });

  it('drops unanswered calls (mid-confirmation) but keeps the thought', () => {
    const a1 = action('c1', 'r1', 'let me look');
    const a2 = action('c2', 'r1');
    const ms = project([userMsg('go'), a1, a2, observation(a2)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c2']);
    assert.deepEqual(callIds(ms[1]), ['c2']);
    const all = project([userMsg('go'), action('c9', 'r9', 'thinking aloud')]);
    assert.deepEqual(all.at(-1), { role: 'assistant', content: 'thinking aloud' });
    assert.deepEqual(shape(project([userMsg('go'), action('c9', 'r9')])), ['user']);
  });

  it('answers rejections and execution errors as tool messages', () => {
    const a1 = action('c1', 'r1');
    const a2 = action('c2', 'r1');
    const ms = project([userMsg('go'), a1, a2, reject(a1, 'too risky'), execError(a2)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'tool:c2']);
    assert.match(String(ms[2]?.content), /rejected this action: too risky/);
    assert.equal(ms[3]?.content, 'boom');
  });

  it('drops results without a call, duplicates, and results logged before their call', () => {
    const a1 = action('c1', 'r1');
    const early = observation(a1);
    const orphan = observation(action('zz', 'rz'));
    const ms = project([
      userMsg('go'),
      early,
      orphan,
      a1,
      observation(a1, 'first'),
      observation(a1, 'second'),
    ]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1']);
    assert.equal(ms[2]?.content, 'first');
  });

  it('handles tool_call ids reused across responses', () => {
    const a1 = action('call_0', 'r1');
    const a2 = action('call_0', 'r2');
    const ms = project([userMsg('go'), a1, observation(a1, 'one'), a2, observation(a2, 'two')]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:call_0', 'assistant', 'tool:call_0']);
    assert.deepEqual([ms[2]?.content, ms[4]?.content], ['one', 'two']);
  });

  it('a user message between a batch and its results moves after the results', () => {
    const a1 = action('c1', 'r1');
    const ms = project([userMsg('go'), a1, userMsg('also this'), observation(a1)]);
    assert.deepEqual(shape(ms), ['user', 'assistant', 'tool:c1', 'user']);
  });

  it('flags error observations for the model and carries reasoning_content', () => {
    const a1 = createEvent('ActionEvent', {
      thought: [],
      reasoning_content: 'hmm',
      action: null,
      tool_name: 'terminal',
      tool_call_id: 'c1',
      tool_call: { id: 'c1', name: 'terminal', arguments: '{}' },
      llm_response_id: 'r1',
    });
    const obs = createEvent('ObservationEvent', {
      observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: 'nope' }], is_error: true },
      action_id: a1.id,
      tool_name: 'terminal',
      tool_call_id: 'c1',
    });
    const ms = project([userMsg('go'), a1, obs]);
    assert.equal(ms[1]?.role === 'assistant' && ms[1].reasoning_content, 'hmm');
    assert.match(String(ms[2]?.content), /^\[The tool reported an error\.\]\nnope$/);
  });

  it('projects the real OpenHands fixture into a valid list', () => {
    const text = readFileSync(
      join(__dirname, '..', '..', 'fixtures', 'openhands', 'real-events.jsonl'),
      'utf8',
    );
    const events = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const r = parseEvent(l);
        if (!r.ok) throw new Error(r.error.message);
        return r.event;
      });
    const ms = project([userMsg('review the PR'), ...events]);
    // The 2nd observation answers an action missing from the excerpt, so it is dropped.
    assert.deepEqual(shape(ms), [
      'user',
      'assistant',
      'tool:chatcmpl-tool-9d0341c7a033ae28',
      'assistant',
      'tool:chatcmpl-tool-9fa678118a57807d',
    ]);
  });
});
