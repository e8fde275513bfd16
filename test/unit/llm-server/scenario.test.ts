import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI, { APIError } from 'openai';
import {
  loadScenarioFile,
  parseScenario,
  type Scenario,
  ScenarioFormatError,
  type ScriptedLlm,
  startScriptedLlm,
} from '../../support/llm-server';

const SCENARIOS = join(__dirname, '../../fixtures/scenarios');
const MODEL = 'test-model';
const READ_FILE: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
};

async function failure(promise: Promise<unknown>): Promise<APIError> {
  const err = await promise.then(
    () => assert.fail('expected the request to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof APIError, `expected an APIError, got ${String(err)}`);
  return err;
}

describe('scripted LLM server: scenarios', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  before(async () => {
    llm = await startScriptedLlm({});
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  after(() => llm.close());

  it('plays a scenario file through a tool round trip, matching each turn', async () => {
    llm.setScenario(await loadScenarioFile(join(SCENARIOS, 'read-file-loop.json')));
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'What is in math.js?' },
    ];
    const first = await client.chat.completions
      .stream({ model: MODEL, messages, tools: [READ_FILE], tool_choice: 'auto' })
      .finalChatCompletion();
    const assistant = first.choices[0]?.message;
    assert.ok(assistant);
    assert.equal(assistant.tool_calls?.[0]?.id, 'call_read_1');
    messages.push(assistant, { role: 'tool', tool_call_id: 'call_read_1', content: 'function add(a, b) {}' });

    const second = await client.chat.completions.create({ model: MODEL, messages, tools: [READ_FILE] });
    assert.equal(second.choices[0]?.message.content, 'math.js exports an add function.');
    assert.equal(second.usage?.prompt_tokens_details?.cached_tokens, 64);
    assert.equal(llm.remainingTurns(), 0);
  });

  it('plays the demo scenario, which also answers anything after it with its fallback', async () => {
    const demo = await startScriptedLlm({ scenarioFile: join(SCENARIOS, 'demo.json') });
    try {
      const demoClient = new OpenAI({ baseURL: demo.baseUrl, apiKey: 'k', maxRetries: 0 });
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'Show me a demo' },
      ];
      const first = await demoClient.chat.completions
        .stream({ model: MODEL, messages })
        .finalChatCompletion();
      const assistant = first.choices[0]?.message;
      const call = assistant?.tool_calls?.[0];
      assert.ok(assistant && call?.type === 'function');
      assert.equal(call.function.name, 'think');
      assert.ok(assistant.content);
      messages.push(assistant, { role: 'tool', tool_call_id: call.id, content: 'noted' });
      const final = await demoClient.chat.completions
        .stream({ model: MODEL, messages })
        .finalChatCompletion();
      assert.equal(final.choices[0]?.finish_reason, 'stop');
      assert.equal(demo.remainingTurns(), 0);
      const extra = await demoClient.chat.completions.create({ model: MODEL, messages: [messages[0]!] });
      assert.match(extra.choices[0]?.message.content ?? '', /demo scenario has finished/);
    } finally {
      await demo.close();
    }
  });

  it('rejects a request that does not match the next turn, naming scenario, turn and every difference', async () => {
    llm.setScenario({
      name: 'strict-script',
      turns: [
        { reply: { content: 'first' } },
        {
          note: 'after the tool ran',
          match: { lastRole: 'tool', hasTools: true },
          reply: { content: 'second' },
        },
      ],
    });
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'go' }] });
    const err = await failure(
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'again' }] }),
    );
    assert.equal(err.status, 400);
    assert.equal(err.code, 'scenario_mismatch');
    assert.match(err.message, /Scenario "strict-script"/);
    assert.match(err.message, /turn 1 \("after the tool ran"\)/);
    assert.match(err.message, /lastRole: expected "tool", got "user"/);
    assert.match(err.message, /hasTools: expected true, got false/);
    assert.equal(llm.remainingTurns(), 1, 'a mismatch does not consume the turn');
  });

  it('reports content, tool result, tool choice and model mismatches in words', async () => {
    llm.setScenario({
      name: 'details',
      turns: [
        {
          match: {
            lastContentIncludes: 'weather',
            toolResultIncludes: 'sunny',
            toolChoice: 'required',
            model: 'gpt-special',
          },
          reply: { content: 'never' },
        },
      ],
    });
    const err = await failure(
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'news please' }] }),
    );
    assert.match(err.message, /lastContentIncludes: "weather" not found in the last message "news please"/);
    assert.match(
      err.message,
      /toolResultIncludes: "sunny" not found in no tool messages after the last assistant/,
    );
    assert.match(err.message, /toolChoice: expected "required", got "\(unset\)"/);
    assert.match(err.message, /model: expected "gpt-special", got "test-model"/);
  });

  it('matches toolResultIncludes against any tool message since the last assistant message', async () => {
    llm.setScenario({
      name: 'tool-results',
      turns: [{ match: { toolResultIncludes: 'second result' }, reply: { content: 'matched' } }],
    });
    const completion = await client.chat.completions.create({
      model: MODEL,
      tools: [READ_FILE],
      tool_choice: { type: 'function', function: { name: 'read_file' } },
      messages: [
        { role: 'user', content: 'read both' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } },
            { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'first result' },
        { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'the second result' }] },
      ],
    });
    assert.equal(completion.choices[0]?.message.content, 'matched');
  });

  it('matches a named tool_choice as function:NAME', async () => {
    llm.setScenario({ name: 'named', turns: [{ match: { toolChoice: 'function:read_file' }, reply: {} }] });
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'x' }],
      tools: [READ_FILE],
      tool_choice: { type: 'function', function: { name: 'read_file' } },
    });
    assert.equal(completion.choices[0]?.message.content, '');
  });

  it('answers 400 scenario_exhausted once the script has run out and there is no fallback', async () => {
    llm.setScenario({ name: 'one-shot', turns: [{ reply: { content: 'only' } }] });
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'a' }] });
    const err = await failure(
      client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'one more' }] }),
    );
    assert.equal(err.status, 400);
    assert.equal(err.code, 'scenario_exhausted');
    assert.match(err.message, /Scenario "one-shot" has no turn left: all 1 turn was used/);
    assert.match(err.message, /user message "one more"/);
  });

  it('answers every request after the script with the fallback reply when one is set', async () => {
    llm.setScenario({ name: 'with-fallback', turns: [], fallback: { content: 'default answer' } });
    for (let i = 0; i < 3; i++) {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'a' }],
      });
      assert.equal(completion.choices[0]?.message.content, 'default answer');
    }
  });

  it('counts a partly used repeating turn as remaining', async () => {
    llm.setScenario({
      name: 'repeat',
      turns: [{ reply: { content: 'r' }, repeat: 2 }, { reply: { content: 'last' } }],
    });
    assert.equal(llm.remainingTurns(), 2);
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'a' }] });
    assert.equal(llm.remainingTurns(), 2);
    await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'a' }] });
    assert.equal(llm.remainingTurns(), 1);
  });

  it('loads a scenario at runtime with POST /__scenario and restarts from its first turn', async () => {
    llm.setScenario({ name: 'old', turns: [{ reply: { content: 'old' } }] });
    const scenario: Scenario = { name: 'posted', turns: [{ reply: { content: 'from POST' } }] };
    const res = await fetch(llm.baseUrl.replace(/\/v1$/, '/__scenario'), {
      method: 'POST',
      body: JSON.stringify(scenario),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { name: 'posted', turns: 1 });
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'a' }],
    });
    assert.equal(completion.choices[0]?.message.content, 'from POST');
  });

  it('refuses a malformed scenario on POST /__scenario with a 400 naming the bad field', async () => {
    const res = await fetch(llm.baseUrl.replace(/\/v1$/, '/__scenario'), {
      method: 'POST',
      body: JSON.stringify({ name: 'typo', turns: [{ match: { lastContentInclude: 'x' }, reply: {} }] }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /turns\[0\]\.match has unknown key "lastContentInclude"/);
  });
});

describe('parseScenario', () => {
  const rejects = (value: unknown, pattern: RegExp) =>
    assert.throws(
      () => parseScenario(value, 'test'),
      (err: unknown) => {
        assert.ok(err instanceof ScenarioFormatError);
        assert.match(err.message, pattern);
        return true;
      },
    );

  it('accepts every fixture scenario', async () => {
    const files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 3);
    for (const file of files) {
      const scenario = await loadScenarioFile(join(SCENARIOS, file));
      assert.ok(scenario.turns.length > 0, file);
    }
  });

  it('names the field of a malformed scenario', () => {
    rejects({ turns: [] }, /^test: name must be a string/);
    rejects({ name: 'x', turns: [{}] }, /turns\[0\] needs a "reply" or a "fault"/);
    rejects(
      { name: 'x', turns: [{ reply: { toolCalls: [{ arguments: {} }] } }] },
      /toolCalls\[0\]\.name must be/,
    );
    rejects({ name: 'x', turns: [{ reply: { finishReason: 'done' } }] }, /finishReason must be one of stop/);
    rejects({ name: 'x', turns: [{ fault: {} }] }, /fault needs at least one of status/);
    rejects({ name: 'x', turns: [{ fault: { status: 200 } }] }, /status must be an integer >= 400/);
    rejects({ name: 'x', turns: [{ reply: {}, repeat: 0 }] }, /repeat must be an integer >= 1/);
    rejects(
      { name: 'x', turns: [{ match: { lastRole: 'function' }, reply: {} }] },
      /lastRole must be one of/,
    );
    rejects({ name: 'x', turns: [], extra: true }, /the scenario has unknown key "extra"/);
  });

  it('refuses a scenario file that is not JSON', async () => {
    await assert.rejects(loadScenarioFile(join(SCENARIOS, 'README-missing.json')), /ENOENT/);
    await assert.rejects(loadScenarioFile(__filename), /is not valid JSON/);
  });

  it('is checked by setScenario too, so a bad in-process scenario fails at once', async () => {
    const llm = await startScriptedLlm({});
    try {
      assert.throws(
        () => llm.setScenario({ name: 'bad', turns: [{ reply: { chunkSize: 0 } }] }),
        ScenarioFormatError,
      );
    } finally {
      await llm.close();
    }
  });
});
