// A reply held until the test releases it: the client waits inside its request for exactly as long
// as the test needs, on a fast machine or a slow one.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';

const USER = [{ role: 'user' as const, content: 'hello' }];

describe('scripted LLM server: holdUntilReleased', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  beforeEach(async () => {
    llm = await startScriptedLlm({});
    client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'test-key', maxRetries: 0 });
  });
  afterEach(() => llm.close());

  it('answers only after release, streamed or not', async () => {
    for (const stream of [false, true]) {
      llm.setScenario({
        name: 'hold',
        turns: [{ reply: { content: 'now', holdUntilReleased: `g${stream}` } }],
      });
      let answered = false;
      const request = (async () => {
        if (!stream)
          return (await client.chat.completions.create({ model: 'm', messages: USER })).choices[0]!.message
            .content;
        let text = '';
        for await (const chunk of await client.chat.completions.create({
          model: 'm',
          messages: USER,
          stream: true,
        }))
          text += chunk.choices[0]?.delta.content ?? '';
        return text;
      })().finally(() => (answered = true));
      await sleep(300);
      assert.equal(answered, false, 'held until released');
      llm.release(`g${stream}`);
      assert.equal(await request, 'now');
    }
  });

  it('a release before the request lets it through at once; POST /__release releases too', async () => {
    llm.release('early');
    llm.setScenario({
      name: 'hold',
      turns: [
        { reply: { content: 'one', holdUntilReleased: 'early' } },
        { reply: { content: 'two', holdUntilReleased: 'by-http' } },
      ],
    });
    const one = await client.chat.completions.create({ model: 'm', messages: USER });
    assert.equal(one.choices[0]!.message.content, 'one');
    const two = client.chat.completions.create({ model: 'm', messages: USER });
    await sleep(100);
    const res = await fetch(llm.baseUrl.replace(/\/v1$/, '/__release'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'by-http' }),
    });
    assert.equal(res.status, 200);
    assert.equal((await two).choices[0]!.message.content, 'two');
  });

  it('a scenario with a non-string name is refused', () => {
    assert.throws(
      () => llm.setScenario({ name: 'bad', turns: [{ reply: { holdUntilReleased: 3 as never } }] }),
      /holdUntilReleased/,
    );
  });
});
