import assert from 'node:assert/strict';
import { type LlmDelta, LlmError } from '../../../src/core/llm';
import { API_KEY, MODEL, describeEachFetch, rejectionOf, USER } from './harness';

const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'terminal',
      description: 'Run a command',
      parameters: { type: 'object', properties: {} },
    },
  },
];

describeEachFetch('OpenAiLlmClient: replies', (h) => {
  it('streams text and reasoning deltas in order and returns the assembled reply', async () => {
    const content = 'The answer is 42, as computed from the inputs.';
    h.play([{ reply: { content, reasoning: 'think first, then answer', chunkSize: 5 } }]);
    const deltas: LlmDelta[] = [];
    const res = await h.client().complete({ messages: USER }, { onDelta: (d) => deltas.push(d) });

    assert.equal(res.content, content);
    assert.equal(res.reasoning, 'think first, then answer');
    assert.deepEqual(res.toolCalls, []);
    assert.equal(res.finishReason, 'stop');
    assert.equal(res.model, MODEL);
    assert.match(res.id, /^chatcmpl-/);
    assert.ok(res.latencyMs >= 0);
    const texts = deltas.filter((d) => d.type === 'text').map((d) => d.text);
    assert.ok(texts.length >= 9, `content came in pieces (${texts.length})`);
    assert.equal(texts.join(''), content);
    const firstText = deltas.findIndex((d) => d.type === 'text');
    const lastReasoning = deltas.findLastIndex((d) => d.type === 'reasoning');
    assert.ok(lastReasoning < firstText, 'reasoning streamed before the content, as sent');
  });

  it('assembles parallel tool calls from fragments and publishes their argument deltas', async () => {
    h.play([
      {
        reply: {
          content: 'Reading both.',
          chunkSize: 4,
          toolCalls: [
            { id: 'call_a', name: 'read_file', arguments: { path: 'src/a.ts' } },
            { id: 'call_b', name: 'terminal', arguments: { command: 'ls -la' } },
          ],
        },
      },
    ]);
    const deltas: LlmDelta[] = [];
    const res = await h
      .client()
      .complete({ messages: USER, tools: TOOLS }, { onDelta: (d) => deltas.push(d) });

    assert.deepEqual(res.toolCalls, [
      { id: 'call_a', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
      { id: 'call_b', name: 'terminal', arguments: '{"command":"ls -la"}' },
    ]);
    assert.equal(res.finishReason, 'tool_calls');
    const calls = deltas.filter((d) => d.type === 'tool_call');
    assert.deepEqual(
      calls.filter((d) => d.name !== undefined).map((d) => [d.index, d.id, d.name]),
      [
        [0, 'call_a', 'read_file'],
        [1, 'call_b', 'terminal'],
      ],
    );
    const argsOf = (i: number) =>
      calls
        .filter((d) => d.index === i)
        .map((d) => d.argumentsDelta)
        .join('');
    assert.equal(argsOf(0), '{"path":"src/a.ts"}');
    assert.equal(argsOf(1), '{"command":"ls -la"}');
    assert.ok(calls.length > 4, 'arguments arrived in several deltas');
    assert.deepEqual(h.bodies()[0]?.tools, TOOLS);
  });

  it('reports usage with cached and reasoning tokens, and prices it from the table', async () => {
    h.play([
      { reply: { content: 'ok', usage: { prompt: 1000, completion: 200, cached: 400, reasoning: 50 } } },
    ]);
    const client = h.client({ prices: { [MODEL]: { input: 1, cachedInput: 0.5, output: 2 } } });
    const res = await client.complete({ messages: USER });
    assert.deepEqual(res.usage, {
      promptTokens: 1000,
      completionTokens: 200,
      cachedTokens: 400,
      reasoningTokens: 50,
    });
    assert.equal(res.costSource, 'price');
    // 600 uncached * $1 + 400 cached * $0.5 + 200 out * $2, per million tokens.
    assert.equal(res.cost, (600 + 200 + 400) / 1_000_000);
  });

  it('costs nothing for a model missing from the price table, and says the cost is unknown', async () => {
    h.play([{ reply: { content: 'ok', usage: { prompt: 1000, completion: 200 } } }]);
    const res = await h.client().complete({ messages: USER });
    assert.equal(res.usage?.promptTokens, 1000);
    assert.equal(res.cost, 0);
    assert.equal(res.costSource, 'unknown');
  });

  it('takes the cost the provider reports in usage.cost over the price table (OpenRouter)', async () => {
    h.play([{ reply: { content: 'ok', usage: { prompt: 1000, completion: 200, cost: 0.0123 } } }]);
    const client = h.client({ prices: { [MODEL]: { input: 1, output: 2 } } });
    const res = await client.complete({ messages: USER });
    assert.equal(res.cost, 0.0123);
    assert.equal(res.costSource, 'provider');
    assert.equal(res.usage?.providerCost, 0.0123);
  });

  it('sends model, stream options, sampling settings, extra headers and the key', async () => {
    h.play([{ reply: { content: 'ok' } }]);
    const client = h.client({
      temperature: 0.2,
      maxOutputTokens: 512,
      extraHeaders: { 'X-Team': 'logbook', 'HTTP-Referer': 'https://example.test' },
    });
    await client.complete({ messages: USER });
    const request = h.llm.requests.at(-1)!;
    assert.equal(request.headers['x-team'], 'logbook');
    assert.equal(request.headers['http-referer'], 'https://example.test');
    assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
    const body = request.body as Record<string, unknown>;
    assert.equal(body.model, MODEL);
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.temperature, 0.2);
    assert.equal(body.max_tokens, 512);
    assert.deepEqual(body.messages, USER);
    assert.equal(body.tools, undefined, 'no empty tools array');
  });

  it('uses max_completion_tokens for OpenAI reasoning models and honours a per-call cap', async () => {
    h.play([{ reply: { content: 'ok' } }]);
    await h
      .client({ model: 'o4-mini', maxOutputTokens: 512 })
      .complete({ messages: USER, maxOutputTokens: 64 });
    const body = h.bodies()[0]!;
    assert.equal(body.max_completion_tokens, 64);
    assert.equal(body.max_tokens, undefined);
  });

  it('works without an API key by sending a placeholder', async () => {
    h.play([{ reply: { content: 'local' } }]);
    const res = await h.client({ apiKey: '' }).complete({ messages: USER });
    assert.equal(res.content, 'local');
    assert.equal(h.llm.requests.at(-1)?.headers.authorization, 'Bearer no-key');
  });

  it('leaves out the placeholder bearer when the key travels in an api-key header (Azure)', async () => {
    h.play([{ reply: { content: 'azure' } }]);
    await h
      .client({ apiKey: '', extraHeaders: { 'api-key': 'azure-secret-key' } })
      .complete({ messages: USER });
    const headers = h.llm.requests.at(-1)!.headers;
    assert.equal(headers['api-key'], 'azure-secret-key');
    assert.equal(headers.authorization, undefined);
  });

  it('keeps going when the delta listener throws', async () => {
    h.play([{ reply: { content: 'still fine' } }]);
    const res = await h.client().complete(
      { messages: USER },
      {
        onDelta: () => {
          throw new Error('webview gone');
        },
      },
    );
    assert.equal(res.content, 'still fine');
  });

  it('rejects invalid settings with the field names and without echoing values', () => {
    assert.throws(
      () => h.client({ baseUrl: 'not a url', model: '', apiKey: API_KEY }),
      (err: Error) => {
        assert.match(err.message, /baseUrl/);
        assert.match(err.message, /model/);
        assert.ok(!err.message.includes(API_KEY));
        return true;
      },
    );
  });

  it('fails with empty_response on a reply with neither content nor tool calls', async () => {
    h.play([{ reply: { content: '' } }]);
    const err = await rejectionOf(h.client().complete({ messages: USER }));
    assert.ok(err instanceof LlmError);
    assert.equal(err.kind, 'empty_response');
    assert.match(err.message, /no content and no tool calls/);
  });
});
