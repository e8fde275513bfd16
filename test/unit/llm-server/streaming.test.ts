import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { type ChatCompletionChunk } from 'openai/resources/chat/completions';
import { type Scenario, type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';

const MODEL = 'test-model';
const USER = [{ role: 'user' as const, content: 'hello' }];
const TOOLS: OpenAI.Chat.ChatCompletionTool[] = ['read_file', 'list_dir'].map((name) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: { path: { type: 'string' } } } },
}));

describe('scripted LLM server: replies', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  const play = (scenario: Omit<Scenario, 'name'>) => llm.setScenario({ name: 'replies', ...scenario });

  before(async () => {
    llm = await startScriptedLlm({});
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  after(() => llm.close());

  it('streams text as several content deltas that add up to the scripted content', async () => {
    play({ turns: [{ reply: { content: 'The quick brown fox jumps.', chunkSize: 5 } }] });
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const deltas = chunks.map((c) => c.choices[0]?.delta.content).filter((d) => d);
    assert.deepEqual(deltas, ['The q', 'uick ', 'brown', ' fox ', 'jumps', '.']);
    assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
    assert.ok(chunks.slice(0, -1).every((c) => c.choices[0]?.finish_reason === null));
    const ids = new Set(chunks.map((c) => c.id));
    assert.equal(ids.size, 1);
    assert.match([...ids][0] ?? '', /^chatcmpl-\w+$/);
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === MODEL));
    assert.ok(Math.abs((chunks[0]?.created ?? 0) - Date.now() / 1000) < 60);
  });

  it('sends the SSE framing of the real API, ending with data: [DONE]', async () => {
    play({ turns: [{ reply: { content: 'hi' } }] });
    const res = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: USER, stream: true }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    const events = text.split('\n\n').filter(Boolean);
    assert.ok(events.every((e) => e.startsWith('data: ')));
    assert.equal(events.at(-1), 'data: [DONE]');
    assert.ok(text.endsWith('data: [DONE]\n\n'));
  });

  it('splits tool calls across chunks exactly like OpenAI, for parallel calls with distinct indexes', async () => {
    play({
      turns: [
        {
          reply: {
            toolCalls: [
              { id: 'call_a', name: 'read_file', arguments: { path: 'src/index.ts' } },
              { id: 'call_b', name: 'list_dir', arguments: '{"path":"."}' },
            ],
            chunkSize: 4,
          },
        },
      ],
    });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: USER,
      tools: TOOLS,
      stream: true,
    });
    const toolDeltas: ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      toolDeltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }

    for (const [index, id, name] of [
      [0, 'call_a', 'read_file'],
      [1, 'call_b', 'list_dir'],
    ] as const) {
      const [first, ...rest] = toolDeltas.filter((d) => d.index === index);
      assert.deepEqual(first, { index, id, type: 'function', function: { name, arguments: '' } });
      assert.ok(rest.length >= 2, 'arguments arrive in several fragments');
      for (const d of rest) assert.deepEqual(Object.keys(d).sort(), ['function', 'index']);
      for (const d of rest) assert.deepEqual(Object.keys(d.function ?? {}), ['arguments']);
    }
    assert.equal(finish, 'tool_calls');
  });

  it('lets the SDK stream helper reassemble parallel tool calls and the text before them', async () => {
    play({
      turns: [
        {
          reply: {
            content: 'Reading two things.',
            toolCalls: [
              { name: 'read_file', arguments: { path: 'a.txt' } },
              { name: 'read_file', arguments: { path: 'b.txt' } },
            ],
            chunkSize: 3,
          },
        },
      ],
    });
    const doneArgs: string[] = [];
    const stream = client.chat.completions
      .stream({ model: MODEL, messages: USER, tools: TOOLS })
      .on('tool_calls.function.arguments.done', (e) => doneArgs.push(e.arguments));
    const completion = await stream.finalChatCompletion();

    const message = completion.choices[0]?.message;
    assert.equal(message?.content, 'Reading two things.');
    const calls = (message?.tool_calls ?? []).map((c) =>
      c.type === 'function' ? c : assert.fail('not a function'),
    );
    assert.deepEqual(
      calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
      [
        ['read_file', { path: 'a.txt' }],
        ['read_file', { path: 'b.txt' }],
      ],
    );
    assert.equal(new Set(calls.map((c) => c.id)).size, 2, 'generated call ids are distinct');
    assert.ok(calls.every((c) => /^call_/.test(c.id)));
    assert.deepEqual(doneArgs, ['{"path":"a.txt"}', '{"path":"b.txt"}']);
    assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
  });

  it('sends reasoning_content deltas before the content when the reply has reasoning', async () => {
    play({
      turns: [{ reply: { reasoning: 'Think first, then answer.', content: 'Answer.', chunkSize: 6 } }],
    });
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    const order: string[] = [];
    let reasoning = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as
        { reasoning_content?: string; content?: string | null } | undefined;
      if (delta?.reasoning_content) {
        reasoning += delta.reasoning_content;
        order.push('reasoning');
      }
      if (delta?.content) order.push('content');
    }
    assert.equal(reasoning, 'Think first, then answer.');
    assert.ok(order.indexOf('content') > order.lastIndexOf('reasoning'));
    assert.ok(order.filter((o) => o === 'reasoning').length > 1, 'reasoning is split too');
  });

  it('ends with a usage chunk (no choices) carrying cached and reasoning tokens when include_usage is set', async () => {
    play({
      turns: [
        { reply: { content: 'ok', usage: { prompt: 1200, completion: 40, cached: 1024, reasoning: 12 } } },
      ],
    });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: USER,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const last = chunks.at(-1);
    assert.deepEqual(last?.choices, []);
    assert.equal(last?.usage?.prompt_tokens, 1200);
    assert.equal(last?.usage?.completion_tokens, 40);
    assert.equal(last?.usage?.total_tokens, 1240);
    assert.equal(last?.usage?.prompt_tokens_details?.cached_tokens, 1024);
    assert.equal(last?.usage?.completion_tokens_details?.reasoning_tokens, 12);
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));
  });

  it('sends no usage chunk when include_usage is not set', async () => {
    play({ turns: [{ reply: { content: 'ok' } }] });
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(chunks.every((c) => c.choices.length === 1 && c.usage === undefined));
  });

  it('answers a non-streamed request with a chat.completion and estimated usage', async () => {
    play({ turns: [{ reply: { content: 'A complete answer.' } }] });
    const completion = await client.chat.completions.create({ model: 'other-model', messages: USER });
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, 'other-model');
    assert.match(completion.id, /^chatcmpl-/);
    assert.equal(completion.choices[0]?.message.content, 'A complete answer.');
    assert.equal(completion.choices[0]?.message.role, 'assistant');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    const usage = completion.usage;
    assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0);
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    assert.equal(usage.prompt_tokens_details?.cached_tokens, 0);
  });

  it('answers a non-streamed tool-call reply with content null and a scripted finish_reason', async () => {
    play({
      turns: [
        { reply: { toolCalls: [{ id: 'call_x', name: 'read_file', arguments: { path: 'x' } }] } },
        { reply: { content: 'cut off', finishReason: 'length' } },
      ],
    });
    const first = await client.chat.completions.create({ model: MODEL, messages: USER, tools: TOOLS });
    assert.equal(first.choices[0]?.message.content, null);
    assert.deepEqual(first.choices[0]?.message.tool_calls, [
      { id: 'call_x', type: 'function', function: { name: 'read_file', arguments: '{"path":"x"}' } },
    ]);
    assert.equal(first.choices[0]?.finish_reason, 'tool_calls');
    const second = await client.chat.completions.create({ model: MODEL, messages: USER });
    assert.equal(second.choices[0]?.finish_reason, 'length');
  });

  it('keeps multi-byte characters whole when splitting deltas', async () => {
    play({ turns: [{ reply: { content: 'héllo 🌍 wörld 🚀', chunkSize: 1 } }] });
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    const deltas: string[] = [];
    for await (const chunk of stream)
      if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    assert.equal(deltas.join(''), 'héllo 🌍 wörld 🚀');
    assert.ok(deltas.includes('🌍') && deltas.includes('🚀'));
  });

  it('lists the scenario models on GET /v1/models', async () => {
    play({ models: ['alpha', 'beta'], turns: [] });
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    assert.deepEqual(models, ['alpha', 'beta']);
  });
});
