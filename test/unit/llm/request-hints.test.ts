import assert from 'node:assert/strict';
import { cachingStyle, endpointFamily, withRequestHints } from '../../../src/core/llm';
import { useScriptedLlm } from './harness';

const CONVERSATION = [
  { role: 'system', content: 'You are Logbook.' },
  { role: 'user', content: 'Fix the build.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'npm ERR! missing script' },
  { role: 'assistant', content: 'Looking at package.json.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Also run the tests.' },
      { type: 'image_url', image_url: { url: 'data:,' } },
    ],
  },
];

type Part = { type: string; text?: string; cache_control?: unknown };
const marked = (messages: unknown[]) =>
  messages.flatMap((m, i) => {
    const content = (m as { content?: unknown }).content;
    return Array.isArray(content) && (content as Part[]).some((p) => p.cache_control) ? [i] : [];
  });

describe('request hints: prompt caching and reasoning effort', () => {
  it('knows the endpoint families by host, not by path or look-alike names', () => {
    assert.equal(endpointFamily('https://api.openai.com/v1'), 'openai');
    assert.equal(endpointFamily('https://my-res.openai.azure.com/openai/v1'), 'azure');
    assert.equal(endpointFamily('https://openrouter.ai/api/v1'), 'openrouter');
    assert.equal(endpointFamily('https://api.openai.com.evil.example/v1'), 'other');
    assert.equal(endpointFamily('http://localhost:11434/v1'), 'other');
    assert.equal(endpointFamily('not a url'), 'other');
  });

  it('auto sends a cache key to OpenAI and Azure, breakpoints for Anthropic and Gemini on OpenRouter, nothing elsewhere', () => {
    assert.equal(cachingStyle({ family: 'openai', model: 'gpt-4.1', caching: 'auto' }), 'key');
    assert.equal(cachingStyle({ family: 'azure', model: 'my-deployment', caching: 'auto' }), 'key');
    assert.equal(
      cachingStyle({ family: 'openrouter', model: 'anthropic/claude-sonnet-4', caching: 'auto' }),
      'breakpoints',
    );
    assert.equal(
      cachingStyle({ family: 'openrouter', model: 'google/gemini-2.5-pro', caching: 'auto' }),
      'breakpoints',
    );
    // OpenRouter caches OpenAI and DeepSeek models by itself: a breakpoint would only add bytes.
    assert.equal(cachingStyle({ family: 'openrouter', model: 'openai/gpt-4.1', caching: 'auto' }), 'none');
    assert.equal(cachingStyle({ family: 'other', model: 'qwen2.5-coder', caching: 'auto' }), 'none');
    assert.equal(cachingStyle({ family: 'openai', model: 'gpt-4.1', caching: 'off' }), 'none');
    assert.equal(cachingStyle({ family: 'other', model: 'claude', caching: 'breakpoints' }), 'breakpoints');
  });

  it('puts breakpoints on the system prompt and the last two user or tool turns, without changing the input', () => {
    const before = JSON.stringify(CONVERSATION);
    const body = withRequestHints(
      { model: 'm', messages: CONVERSATION },
      { family: 'other', model: 'm', caching: 'breakpoints', reasoningEffort: null, cacheKey: 'conv-1' },
    );
    assert.equal(JSON.stringify(CONVERSATION), before, 'the messages passed in are left as they were');
    assert.deepEqual(marked(body.messages as unknown[]), [0, 3, 5]);
    const tool = (body.messages as { content: Part[] }[])[3]!.content;
    assert.deepEqual(tool, [
      { type: 'text', text: 'npm ERR! missing script', cache_control: { type: 'ephemeral' } },
    ]);
    const last = (body.messages as { content: Part[] }[])[5]!.content;
    assert.deepEqual(last[0]!.cache_control, { type: 'ephemeral' }, 'the text part carries it');
    assert.equal(last[1]!.cache_control, undefined, 'not the image part');
    assert.equal('prompt_cache_key' in body, false);
  });

  it('sends reasoning effort as reasoning_effort, or as OpenRouter’s reasoning object', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const plain = withRequestHints(base, {
      family: 'openai',
      model: 'o4-mini',
      caching: 'off',
      reasoningEffort: 'high',
      cacheKey: 'k',
    });
    assert.equal((plain as Record<string, unknown>).reasoning_effort, 'high');
    assert.equal('prompt_cache_key' in plain, false, 'caching off sends no key');
    const routed = withRequestHints(base, {
      family: 'openrouter',
      model: 'x/y',
      caching: 'auto',
      reasoningEffort: 'low',
      cacheKey: 'k',
    });
    assert.deepEqual((routed as Record<string, unknown>).reasoning, { effort: 'low' });
    assert.equal('reasoning_effort' in routed, false);
    const none = withRequestHints(base, {
      family: 'openai',
      model: 'gpt-4.1',
      caching: 'auto',
      reasoningEffort: null,
      cacheKey: 'k',
    });
    assert.equal('reasoning_effort' in none, false);
    assert.equal((none as Record<string, unknown>).prompt_cache_key, 'k');
  });

  describe('through the client, as the endpoint receives them', () => {
    const h = useScriptedLlm();

    it('sends the cache key, breakpoints and effort the settings ask for, and nothing by default', async () => {
      const messages = [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'hello' },
      ];
      h.play([{ reply: { content: 'one' } }, { reply: { content: 'two' } }, { reply: { content: 'three' } }]);
      await h
        .client({ promptCaching: 'key', reasoningEffort: 'minimal' })
        .complete({ messages, cacheKey: 'conv-42' });
      await h.client({ promptCaching: 'breakpoints' }).complete({ messages, cacheKey: 'conv-42' });
      await h.client().complete({ messages, cacheKey: 'conv-42' });
      const [keyed, broken, plain] = h.bodies() as [
        Record<string, unknown>,
        Record<string, unknown>,
        Record<string, unknown>,
      ];
      assert.equal(keyed.prompt_cache_key, 'conv-42');
      assert.equal(keyed.reasoning_effort, 'minimal');
      assert.deepEqual(marked(broken.messages as unknown[]), [0, 1]);
      assert.equal(broken.prompt_cache_key, undefined);
      // A local endpoint with default settings gets the plain request it always got.
      assert.equal(plain.prompt_cache_key, undefined);
      assert.equal(plain.reasoning_effort, undefined);
      assert.deepEqual(plain.messages, messages);
    });

    it('refuses a reasoning effort or caching mode it does not know, naming the field', () => {
      assert.throws(() => h.client({ reasoningEffort: 'extreme' as never }), /reasoningEffort/);
      assert.throws(() => h.client({ promptCaching: 'always' as never }), /promptCaching/);
    });
  });
});
