import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import OpenAI from 'openai';
import { type RecordedRequest, type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';

const ROOT = join(__dirname, '../../..');
const MODEL = 'test-model';

describe('scripted LLM server: request recording', () => {
  let llm: ScriptedLlm;
  let client: OpenAI;

  before(async () => {
    llm = await startScriptedLlm({ scenario: { name: 'recording', turns: [], fallback: { content: 'ok' } } });
    client = new OpenAI({
      baseURL: llm.baseUrl,
      apiKey: 'secret-test-key',
      maxRetries: 0,
      defaultHeaders: { 'x-logbook-test': 'yes' },
    });
  });
  after(() => llm.close());

  it('records method, path, headers, parsed body and time of every request', async () => {
    const before = llm.requests.length;
    const started = Date.now();
    await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'record me' }],
      temperature: 0.25,
      stream: true,
      stream_options: { include_usage: true },
    });
    await client.models.list();

    const [chat, models] = llm.requests.slice(before) as [RecordedRequest, RecordedRequest];
    assert.equal(chat.method, 'POST');
    assert.equal(chat.path, '/v1/chat/completions');
    assert.equal(chat.headers.authorization, 'Bearer secret-test-key');
    assert.equal(chat.headers['x-logbook-test'], 'yes');
    assert.deepEqual(chat.body, {
      model: MODEL,
      messages: [{ role: 'user', content: 'record me' }],
      temperature: 0.25,
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.ok(chat.timestamp >= started - 5 && chat.timestamp <= Date.now());
    assert.equal(models.method, 'GET');
    assert.equal(models.path, '/v1/models');
    assert.deepEqual(llm.completionBodies().at(-1)?.messages, [{ role: 'user', content: 'record me' }]);
  });

  it('records requests that were rejected too', async () => {
    const before = llm.requests.length;
    await fetch(`${llm.baseUrl}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' });
    assert.deepEqual(llm.requests.at(-1)?.body, { model: 'm', messages: [] });
    assert.equal(llm.requests.length, before + 1);
  });

  it('serves the log on GET /__requests for out-of-process tests, without logging that call', async () => {
    const count = llm.requests.length;
    const res = await fetch(llm.baseUrl.replace(/\/v1$/, '/__requests'));
    const log = (await res.json()) as RecordedRequest[];
    assert.equal(log.length, count);
    assert.deepEqual(log.at(-1)?.body, llm.requests.at(-1)?.body);
    assert.equal(llm.requests.length, count);
  });

  it('answers unknown paths with a 404 in the OpenAI error shape', async () => {
    const res = await fetch(`${llm.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { message: string } };
    assert.match(body.error.message, /Unknown request URL: POST \/v1\/embeddings/);
  });
});

describe('scripted LLM server: lifecycle', () => {
  it('closes promptly even while a slow stream is in progress, and the client sees the error', async () => {
    const llm = await startScriptedLlm({
      scenario: {
        name: 'slow',
        turns: [{ reply: { content: 'x'.repeat(100), chunkSize: 1, delayMs: 1000 } }],
      },
    });
    const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
    });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const rest = (async () => {
      for (let r = await iterator.next(); !r.done; r = await iterator.next());
    })();
    rest.catch(() => undefined);
    const started = Date.now();
    await llm.close();
    // The stream has 100 s left to send: a close that waited for it would take far longer.
    assert.ok(Date.now() - started < 10_000, `close took ${Date.now() - started} ms`);
    await assert.rejects(rest);
  });

  it('listens on the requested port and refuses a second server on it', async () => {
    const first = await startScriptedLlm({});
    try {
      assert.equal(first.baseUrl, `http://127.0.0.1:${first.port}/v1`);
      await assert.rejects(startScriptedLlm({ port: first.port }), /EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

describe('scripted LLM server: cli', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints its URL, serves the scenario file and exits cleanly on SIGTERM', async () => {
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/support/llm-server/cli.ts',
        '--scenario',
        'test/fixtures/scenarios/demo.json',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child?.stdout?.on('data', (d: Buffer) => {
        output += d.toString();
        const found = /LLM server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
        if (found?.[1]) resolve(found[1]);
      });
      child?.once('exit', () => reject(new Error(`cli exited early:\n${output}`)));
    });

    const client = new OpenAI({ baseURL: baseUrl, apiKey: 'k', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(completion.choices[0]?.message.tool_calls?.[0]?.id, 'call_demo_think');

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0, output);
  });
});
