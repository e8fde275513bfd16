import assert from 'node:assert/strict';
import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import { type Scenario, type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';

const MODEL = 'test-model';
const USER = [{ role: 'user' as const, content: 'hello' }];

describe('scripted LLM server: faults', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  const play = (turns: Scenario['turns']) => llm.setScenario({ name: 'faults', turns });
  const apiError = async (promise: Promise<unknown>): Promise<APIError> => {
    const err = await promise.then(
      () => assert.fail('expected the request to fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof APIError, `expected an APIError, got ${String(err)}`);
    return err;
  };

  before(async () => {
    llm = await startScriptedLlm({});
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  after(() => llm.close());

  it('answers 429 with Retry-After and the rate_limit_exceeded error', async () => {
    play([{ fault: { status: 429, retryAfter: 1 } }]);
    const err = await apiError(client.chat.completions.create({ model: MODEL, messages: USER }));
    assert.equal(err.status, 429);
    assert.equal(err.code, 'rate_limit_exceeded');
    assert.equal(err.type, 'requests');
    assert.equal(err.headers?.get('retry-after'), '1');
    assert.equal(llm.remainingTurns(), 0);
  });

  it('lets a client with maxRetries 1 retry a 429 and succeed on the next turn', async () => {
    play([{ fault: { status: 429, retryAfter: 1 } }, { reply: { content: 'after the retry' } }]);
    const retrying = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 1 });
    const requestsBefore = llm.requests.length;
    const started = Date.now();
    const completion = await retrying.chat.completions.create({ model: MODEL, messages: USER });
    assert.equal(completion.choices[0]?.message.content, 'after the retry');
    assert.ok(Date.now() - started >= 900, 'the client waited for Retry-After');
    assert.equal(llm.requests.length - requestsBefore, 2);
  });

  it('applies a fault turn with repeat N to N consecutive requests, then moves on', async () => {
    play([
      // retry-after-ms keeps the SDK's exponential backoff out of the test's running time.
      { fault: { status: 500, retryAfterMs: 10 }, repeat: 2 },
      { reply: { content: 'third time lucky' } },
    ]);
    const retrying = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 2 });
    const requestsBefore = llm.requests.length;
    const completion = await retrying.chat.completions.create({ model: MODEL, messages: USER });
    assert.equal(completion.choices[0]?.message.content, 'third time lucky');
    assert.equal(llm.requests.length - requestsBefore, 3);
  });

  it('answers 500 with a server_error body', async () => {
    play([{ fault: { status: 500 } }]);
    const err = await apiError(client.chat.completions.create({ model: MODEL, messages: USER }));
    assert.equal(err.status, 500);
    assert.equal(err.type, 'server_error');
    assert.match(err.message, /error while processing your request/);
  });

  it('surfaces context_length_exceeded in the exact OpenAI error shape', async () => {
    play([{ fault: { status: 400, code: 'context_length_exceeded' } }]);
    const err = await apiError(client.chat.completions.create({ model: MODEL, messages: USER }));
    assert.equal(err.status, 400);
    assert.equal(err.code, 'context_length_exceeded');
    assert.equal(err.param, 'messages');
    assert.equal(err.type, 'invalid_request_error');
    assert.deepEqual(Object.keys(err.error as object).sort(), ['code', 'message', 'param', 'type']);
    assert.match(err.message, /maximum context length/);
  });

  it('delays the first byte by slowFirstByteMs, then sends the reply', async () => {
    play([{ fault: { slowFirstByteMs: 300 }, reply: { content: 'slow' } }]);
    const started = Date.now();
    const completion = await client.chat.completions.create({ model: MODEL, messages: USER });
    assert.ok(Date.now() - started >= 280);
    assert.equal(completion.choices[0]?.message.content, 'slow');
  });

  it('lets a client timeout fire during slowFirstByteMs', async () => {
    play([{ fault: { slowFirstByteMs: 5000 }, reply: { content: 'too late' } }]);
    const impatient = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0, timeout: 200 });
    await assert.rejects(
      impatient.chat.completions.create({ model: MODEL, messages: USER }),
      APIConnectionTimeoutError,
    );
  });

  it('destroys the socket mid-stream after disconnectAfterChunks, and the client raises', async () => {
    play([
      {
        fault: { disconnectAfterChunks: 3 },
        reply: { content: 'a long answer that never finishes', chunkSize: 2 },
      },
    ]);
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    let received = 0;
    await assert.rejects(async () => {
      for await (const _chunk of stream) received++;
    }, /terminated|closed|aborted|socket/i);
    assert.equal(received, 3);
  });

  it('cuts a non-streamed body short with disconnectAfterChunks, and the client raises', async () => {
    play([{ fault: { disconnectAfterChunks: 0 }, reply: { content: 'never complete' } }]);
    await assert.rejects(client.chat.completions.create({ model: MODEL, messages: USER }));
  });

  it('sends a tool call whose arguments are invalid JSON, verbatim', async () => {
    play([{ reply: { toolCalls: [{ id: 'call_bad', name: 'read_file', arguments: '{"path": "a.txt"' }] } }]);
    const completion = await client.chat.completions
      .stream({
        model: MODEL,
        messages: USER,
        tools: [{ type: 'function', function: { name: 'read_file' } }],
      })
      .finalChatCompletion();
    const call = completion.choices[0]?.message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    assert.equal(call.function.arguments, '{"path": "a.txt"');
    assert.throws(() => JSON.parse(call.function.arguments), SyntaxError);
  });

  it('sends a call to a tool the request did not declare', async () => {
    play([{ reply: { toolCalls: [{ name: 'launch_rockets', arguments: {} }] } }]);
    const completion = await client.chat.completions.create({ model: MODEL, messages: USER });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    assert.equal(call.function.name, 'launch_rockets');
  });

  it('answers with choices: [] for emptyChoices, streamed and not', async () => {
    play([{ fault: { emptyChoices: true } }, { fault: { emptyChoices: true } }]);
    const completion = await client.chat.completions.create({ model: MODEL, messages: USER });
    assert.equal(completion.object, 'chat.completion');
    assert.deepEqual(completion.choices, []);
    const stream = await client.chat.completions.create({ model: MODEL, messages: USER, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks.length, 1);
    assert.deepEqual(chunks[0]?.choices, []);
  });

  it('sends retry-after-ms when a fault sets retryAfterMs', async () => {
    play([{ fault: { status: 503, retryAfterMs: 50 } }]);
    const err = await apiError(client.chat.completions.create({ model: MODEL, messages: USER }));
    assert.equal(err.status, 503);
    assert.equal(err.headers?.get('retry-after-ms'), '50');
    assert.equal(err.headers?.get('retry-after'), null);
  });
});
