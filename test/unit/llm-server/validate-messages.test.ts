import assert from 'node:assert/strict';
import OpenAI, { APIError } from 'openai';
import {
  type RequestProblem,
  type ScriptedLlm,
  startScriptedLlm,
  validateChatRequest,
  validateMessages,
  validateTools,
} from '../../support/llm-server';

const call = (id: string, name = 'read_file') => ({
  id,
  type: 'function',
  function: { name, arguments: '{}' },
});
const user = (content = 'hi') => ({ role: 'user', content });
const assistantCalls = (...ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => call(id)),
});
const toolResult = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'result' });

function only(problems: RequestProblem[]): RequestProblem {
  assert.equal(problems.length, 1, `expected one problem, got ${JSON.stringify(problems)}`);
  return problems[0]!;
}

describe('validateMessages', () => {
  it('accepts a well-formed conversation with parallel tool calls answered in any order', () => {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'developer', content: 'rules' },
      user(),
      assistantCalls('a', 'b'),
      toolResult('b'),
      toolResult('a'),
      { role: 'assistant', content: 'done' },
      { role: 'user', content: [{ type: 'text', text: 'more' }] },
      { role: 'assistant', content: '' },
    ];
    assert.deepEqual(validateMessages(messages), []);
  });

  it('rejects an empty message list', () => {
    assert.deepEqual(only(validateMessages([])), {
      message: "[] is too short - 'messages'",
      param: 'messages',
      code: null,
    });
  });

  it('rejects a tool message that does not follow an assistant message with tool_calls', () => {
    const problem = only(
      validateMessages([user(), { role: 'assistant', content: 'no calls' }, toolResult('a')]),
    );
    assert.match(
      problem.message,
      /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
    );
    assert.equal(problem.param, 'messages[2].role');
  });

  it('rejects a tool message separated from its assistant message by another message', () => {
    const problems = validateMessages([user(), assistantCalls('a'), user('interrupt'), toolResult('a')]);
    assert.equal(problems.length, 2);
    assert.match(problems[0]!.message, /did not have response messages: a$/);
    assert.equal(problems[0]!.param, 'messages[1].role');
    assert.match(problems[1]!.message, /must be a response to a preceeding message/);
  });

  it("rejects a tool_call_id that is not among the preceding assistant message's calls", () => {
    const problem = only(validateMessages([user(), assistantCalls('a'), toolResult('a'), toolResult('zzz')]));
    assert.equal(
      problem.message,
      "Invalid parameter: 'tool_call_id' of 'zzz' not found in 'tool_calls' of previous message.",
    );
    assert.equal(problem.param, 'messages[3].tool_call_id');
  });

  it('rejects answering the same call twice', () => {
    const problem = only(validateMessages([user(), assistantCalls('a'), toolResult('a'), toolResult('a')]));
    assert.match(problem.message, /'a' not found .* \(it was already answered\)/);
  });

  it('rejects tool calls left unanswered, before the next message or at the end', () => {
    const middle = only(validateMessages([user(), assistantCalls('a', 'b', 'c'), toolResult('b'), user()]));
    assert.equal(
      middle.message,
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
        'The following tool_call_ids did not have response messages: a, c',
    );
    assert.equal(middle.param, 'messages[1].role');
    const end = only(validateMessages([user(), assistantCalls('x')]));
    assert.match(end.message, /did not have response messages: x/);
  });

  it('rejects roles outside system, developer, user, assistant and tool', () => {
    for (const role of ['function', 'bot', 42]) {
      const problem = only(validateMessages([{ role, content: 'x' }]));
      assert.match(
        problem.message,
        /^Invalid value: .*Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'\./,
      );
      assert.equal(problem.param, 'messages[0].role');
    }
    assert.equal(
      only(validateMessages([{ content: 'x' }])).message,
      "Missing required parameter: 'messages[0].role'.",
    );
  });

  it('rejects a tool message without tool_call_id', () => {
    const problem = only(
      validateMessages([user(), assistantCalls('a'), { role: 'tool', content: 'r' }, toolResult('a')]),
    );
    assert.equal(problem.message, "Missing required parameter: 'messages[2].tool_call_id'.");
    assert.equal(problem.code, 'missing_required_parameter');
  });

  it('rejects an assistant message with neither content nor tool_calls', () => {
    const problem = only(validateMessages([user(), { role: 'assistant' }]));
    assert.equal(problem.message, "Invalid value for 'content': expected a string, got null.");
    assert.equal(problem.param, 'messages[1].content');
    assert.match(
      only(validateMessages([user(), { role: 'assistant', content: null, tool_calls: [] }])).message,
      /empty array/,
    );
  });

  it('rejects malformed tool calls and missing user content', () => {
    const problems = validateMessages([
      { role: 'user' },
      {
        role: 'assistant',
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'x', arguments: {} } }],
      },
      toolResult('a'),
    ]);
    assert.deepEqual(
      problems.map((p) => p.param),
      ['messages[0].content', 'messages[1].tool_calls[0].function.arguments'],
    );
  });
});

describe('validateTools and validateChatRequest', () => {
  it('accepts well-formed function tools', () => {
    assert.deepEqual(
      validateTools([{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }]),
      [],
    );
  });

  it('rejects tools without type "function" or without a valid function name', () => {
    const problems = validateTools([
      { type: 'retrieval', function: { name: 'a' } },
      { type: 'function' },
      { type: 'function', function: {} },
      { type: 'function', function: { name: 'has space' } },
      { function: { name: 'ok' } },
    ]);
    assert.deepEqual(
      problems.map((p) => p.param),
      [
        'tools[0].type',
        'tools[1].function',
        'tools[2].function.name',
        'tools[3].function.name',
        'tools[4].type',
      ],
    );
    assert.match(problems[3]!.message, /does not match pattern/);
  });

  it('requires a model and messages, and tools when tool_choice is set', () => {
    const problems = validateChatRequest({ tool_choice: 'auto' });
    assert.deepEqual(
      problems.map((p) => p.message),
      [
        'You must provide a model parameter.',
        "Missing required parameter: 'messages'.",
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      ],
    );
  });

  it('rejects stream_options without stream', () => {
    const problem = only(
      validateChatRequest({ model: 'm', messages: [user()], stream_options: { include_usage: true } }),
    );
    assert.equal(problem.param, 'stream_options');
  });
});

describe('scripted LLM server: request validation', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  before(async () => {
    llm = await startScriptedLlm({
      scenario: { name: 'validation', turns: [], fallback: { content: 'ok' } },
    });
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  after(() => llm.close());

  const rejected = async (body: Record<string, unknown>): Promise<APIError> => {
    const params = body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const err = await client.chat.completions.create(params).then(
      () => assert.fail('expected a 400'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof APIError);
    assert.equal(err.status, 400);
    assert.equal(err.type, 'invalid_request_error');
    return err;
  };

  it('answers an invalid message sequence with a 400 like the real API', async () => {
    const err = await rejected({ model: 'm', messages: [user(), assistantCalls('a'), user()] });
    assert.match(err.message, /did not have response messages: a/);
    assert.equal(err.param, 'messages[1].role');
  });

  it('answers invalid tools and empty messages with a 400', async () => {
    assert.match((await rejected({ model: 'm', messages: [] })).message, /too short/);
    const err = await rejected({
      model: 'm',
      messages: [user()],
      tools: [{ type: 'function', function: {} }],
    });
    assert.equal(err.param, 'tools[0].function.name');
  });

  it('answers a body that is not JSON with a 400', async () => {
    const res = await fetch(`${llm.baseUrl}/chat/completions`, { method: 'POST', body: '{not json' });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    assert.match(body.error.message, /could not parse the JSON body/);
  });

  it('does not consume a turn for a rejected request', async () => {
    llm.setScenario({ name: 'keep', turns: [{ reply: { content: 'still here' } }] });
    await rejected({ model: 'm', messages: [{ role: 'assistant' }] });
    assert.equal(llm.remainingTurns(), 1);
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'a' }],
    });
    assert.equal(completion.choices[0]?.message.content, 'still here');
  });
});
