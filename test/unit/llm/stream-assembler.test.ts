// Chunk shapes the scripted server does not produce but real servers do.
import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { LlmDelta } from '../../../src/core/llm';
import { StreamAssembler } from '../../../src/core/llm/stream-assembler';

function chunk(
  delta: Record<string, unknown>,
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk {
  return {
    id: 'resp-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
    ...extra,
  } as ChatCompletionChunk;
}

describe('StreamAssembler', () => {
  it('accepts reasoning in the `reasoning` field (OpenRouter, Ollama)', () => {
    const deltas: LlmDelta[] = [];
    const a = new StreamAssembler((d) => deltas.push(d));
    a.push(chunk({ reasoning: 'hmm ' }));
    a.push(chunk({ reasoning: 'yes' }));
    a.push(chunk({ content: 'done' }));
    assert.equal(a.result().reasoning, 'hmm yes');
    assert.deepEqual(deltas, [
      { type: 'reasoning', text: 'hmm ' },
      { type: 'reasoning', text: 'yes' },
      { type: 'text', text: 'done' },
    ]);
  });

  it('starts a new call when index 0 comes back with another id, and invents missing ids', () => {
    const a = new StreamAssembler();
    a.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x"' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'g', arguments: '{}' } }] }));
    a.push(chunk({ tool_calls: [{ index: 1, function: { name: 'h', arguments: '{}' } }] }));
    const calls = a.result().toolCalls;
    assert.deepEqual(
      calls.slice(0, 3).map((c) => [c.name, c.arguments]),
      [
        ['f', '{"x":1}'],
        ['g', '{}'],
        ['h', '{}'],
      ],
    );
    assert.deepEqual(
      calls.slice(0, 2).map((c) => c.id),
      ['a', 'b'],
    );
    assert.match(calls[2]!.id, /^call_[0-9a-f]{24}$/);
  });

  it('keeps a refusal as the reply text', () => {
    const a = new StreamAssembler();
    a.push(chunk({ role: 'assistant', content: null, refusal: "I can't help with that." }));
    assert.equal(a.result().content, "I can't help with that.");
  });

  it('keeps the name once when a server repeats it in every fragment', () => {
    const a = new StreamAssembler();
    a.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{' } }] }));
    a.push(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '}' } }] }));
    assert.deepEqual(a.result().toolCalls, [{ id: 'a', name: 'f', arguments: '{}' }]);
  });

  it('takes usage from whichever chunk carries it, DeepSeek cache hits included', () => {
    const a = new StreamAssembler();
    a.push(
      chunk(
        { content: 'x' },
        {
          usage: {
            prompt_tokens: 10,
            completion_tokens: 2,
            total_tokens: 12,
            prompt_cache_hit_tokens: 6,
          } as never,
        },
      ),
    );
    assert.deepEqual(a.result().usage, {
      promptTokens: 10,
      completionTokens: 2,
      cachedTokens: 6,
      reasoningTokens: 0,
    });
  });

  it('ignores choices other than the first and notes when no choice came at all', () => {
    const a = new StreamAssembler();
    a.push({ ...chunk({}), choices: [] } as ChatCompletionChunk);
    assert.equal(a.result().sawChoice, false);
    assert.equal(a.deliveredAnything, false);
    a.push({
      ...chunk({}),
      choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null, logprobs: null }],
    } as ChatCompletionChunk);
    assert.equal(a.result().content, '');
    a.push(chunk({ content: 'mine' }));
    assert.equal(a.result().content, 'mine');
    assert.equal(a.deliveredAnything, true);
  });
});
