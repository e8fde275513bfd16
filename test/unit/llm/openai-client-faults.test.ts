import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  backoffDelayMs,
  DEFAULT_BACKOFF,
  type LlmDelta,
  LlmError,
  type LlmErrorKind,
  type LlmRetryNotice,
} from '../../../src/core/llm';
import { API_KEY, describeEachFetch, rejectionOf, USER } from './harness';

async function llmError(promise: Promise<unknown>, kind: LlmErrorKind): Promise<LlmError> {
  const err = await rejectionOf(promise);
  assert.ok(err instanceof LlmError, `expected an LlmError, got ${String(err)}`);
  assert.equal(err.kind, kind, `kind of: ${err.message}`);
  return err;
}

describeEachFetch('OpenAiLlmClient: faults, retries and cancellation', (h) => {
  describe('retries', () => {
    it('retries a 429 after the Retry-After seconds the server asked for', async () => {
      h.play([{ fault: { status: 429, retryAfter: 3 } }, { reply: { content: 'after the wait' } }]);
      const res = await h.client().complete({ messages: USER });
      assert.equal(res.content, 'after the wait');
      assert.deepEqual(h.sleeps, [3000]);
      assert.equal(h.bodies().length, 2);
    });

    it('prefers retry-after-ms when the server sends it', async () => {
      h.play([{ fault: { status: 429, retryAfter: 3, retryAfterMs: 250 } }, { reply: { content: 'ok' } }]);
      await h.client().complete({ messages: USER });
      assert.deepEqual(h.sleeps, [250]);
    });

    it('retries 500s with exponential backoff until the server recovers', async () => {
      h.play([{ fault: { status: 500 }, repeat: 3 }, { reply: { content: 'recovered' } }]);
      const res = await h.client().complete({ messages: USER });
      assert.equal(res.content, 'recovered');
      const expected = [0, 1, 2].map((n) => backoffDelayMs(n, DEFAULT_BACKOFF, () => 0.5));
      assert.deepEqual(h.sleeps, expected);
      assert.ok(expected[0]! < expected[1]! && expected[1]! < expected[2]!, 'delays grow');
      assert.equal(h.bodies().length, 4);
    });

    it('gives up after maxRetries with the status, the provider message and the attempt count', async () => {
      h.play([{ fault: { status: 503 }, repeat: 3 }, { reply: { content: 'too late' } }]);
      const err = await llmError(h.client({ maxRetries: 2 }).complete({ messages: USER }), 'server_error');
      assert.equal(err.status, 503);
      assert.match(err.message, /HTTP 503/);
      assert.match(err.message, /The engine is currently overloaded/);
      assert.match(err.message, /Gave up after 3 attempts/);
      assert.match(err.message, /http:\/\/127\.0\.0\.1:\d+\/v1 \(model "test-model"\) answered HTTP 503/);
      assert.equal(h.sleeps.length, 2);
      assert.equal(h.bodies().length, 3);
    });

    it('fails at once when the server asks for a wait longer than the limit', async () => {
      h.play([{ fault: { status: 429, retryAfter: 3600 } }, { reply: { content: 'never' } }]);
      const err = await llmError(h.client().complete({ messages: USER }), 'rate_limited');
      assert.match(err.message, /retry after 3600 s/);
      assert.deepEqual(h.sleeps, []);
    });

    it('does not retry a quota error', async () => {
      h.play([
        { fault: { status: 429, code: 'insufficient_quota', message: 'You exceeded your current quota.' } },
      ]);
      const err = await llmError(h.client().complete({ messages: USER }), 'rate_limited');
      assert.match(err.message, /insufficient_quota.*current quota/);
      assert.equal(h.bodies().length, 1);
    });
  });

  describe('errors that are not retried', () => {
    it('maps context_length_exceeded to context_window_exceeded', async () => {
      h.play([{ fault: { status: 400, code: 'context_length_exceeded' } }]);
      const err = await llmError(h.client().complete({ messages: USER }), 'context_window_exceeded');
      assert.equal(err.status, 400);
      assert.match(err.message, /maximum context length is 128000 tokens/);
      assert.deepEqual(h.sleeps, []);
      assert.equal(h.bodies().length, 1);
    });

    it('recognises a context error by its wording when the server sends no code', async () => {
      h.play([
        {
          fault: {
            status: 400,
            code: null,
            message:
              "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          },
        },
      ]);
      await llmError(h.client().complete({ messages: USER }), 'context_window_exceeded');
    });

    it('maps 401 to auth, a plain 400 to bad_request', async () => {
      h.play([
        { fault: { status: 401 } },
        { fault: { status: 400, code: 'invalid_value', message: 'bad role' } },
      ]);
      await llmError(h.client().complete({ messages: USER }), 'auth');
      const err = await llmError(h.client().complete({ messages: USER }), 'bad_request');
      assert.match(err.message, /HTTP 400 \(invalid_value\): bad role/);
      assert.equal(h.bodies().length, 2);
    });

    it('never puts the API key or secret headers in an error message', async () => {
      const secret = 'azure-header-secret-value';
      h.play([
        { fault: { status: 401, message: `Incorrect API key provided: ${API_KEY}.` } },
        { fault: { status: 400, message: `bad header ${secret} and key ${API_KEY}` } },
        { fault: { status: 500, message: `echo ${API_KEY}` }, repeat: 2 },
      ]);
      const client = h.client({ maxRetries: 1, extraHeaders: { 'api-key': secret } });
      const errors = [
        await llmError(client.complete({ messages: USER }), 'auth'),
        await llmError(client.complete({ messages: USER }), 'bad_request'),
        await llmError(client.complete({ messages: USER }), 'server_error'),
      ];
      for (const err of errors) {
        assert.ok(!err.message.includes(API_KEY), err.message);
        assert.ok(!err.message.includes(secret), err.message);
        const everything = inspect(err, { depth: 10, showHidden: true });
        assert.ok(!everything.includes(API_KEY), 'nor in the stack, the cause or any field');
        assert.match(err.message, /\[redacted\]/);
      }
    });

    it('fails with empty_response when the server returns no choices', async () => {
      h.play([{ fault: { emptyChoices: true }, reply: { content: 'hidden' } }]);
      const err = await llmError(h.client().complete({ messages: USER }), 'empty_response');
      assert.match(err.message, /without choices/);
      assert.equal(h.bodies().length, 1);
    });
  });

  describe('timeouts and dropped connections', () => {
    it('times out when the first byte is too slow, then retries', async () => {
      h.play([
        { fault: { slowFirstByteMs: 60_000 }, reply: { content: 'slow' } },
        { reply: { content: 'fast' } },
      ]);
      const started = Date.now();
      const res = await h.client({ timeoutMs: 150 }).complete({ messages: USER });
      assert.equal(res.content, 'fast');
      assert.ok(Date.now() - started < 10_000, 'did not wait for the slow server');
      assert.equal(h.sleeps.length, 1);
    });

    it('reports timeout when no attempt is left', async () => {
      h.play([{ fault: { slowFirstByteMs: 60_000 }, reply: { content: 'slow' } }]);
      const err = await llmError(
        h.client({ timeoutMs: 100, maxRetries: 0 }).complete({ messages: USER }),
        'timeout',
      );
      assert.match(err.message, /127\.0\.0\.1:\d+\/v1 sent nothing of the reply for 100 ms/);
    });

    it('times out a stream that stalls between chunks', async () => {
      h.play([{ reply: { content: 'a stalled reply', chunkSize: 2, delayMs: 60_000 } }]);
      const started = Date.now();
      await llmError(h.client({ timeoutMs: 200, maxRetries: 0 }).complete({ messages: USER }), 'timeout');
      assert.ok(Date.now() - started < 10_000);
    });

    it('retries a stream that drops after deltas were published, discarding them first', async () => {
      h.play([
        {
          fault: { disconnectAfterChunks: 4 },
          reply: { content: 'partial answer that is cut', chunkSize: 3 },
        },
        { reply: { content: 'the whole answer' } },
      ]);
      const seen: string[] = [];
      const notices: LlmRetryNotice[] = [];
      const res = await h.client().complete(
        { messages: USER },
        {
          onDelta: (d) => seen.push(d.type === 'text' ? d.text : `<${d.type}>`),
          onRetry: (n) => {
            notices.push(n);
            seen.push('<retry>');
          },
        },
      );
      assert.equal(res.content, 'the whole answer');
      const cut = seen.indexOf('<discard>');
      assert.ok(cut > 0, `partial deltas, then a discard: ${JSON.stringify(seen)}`);
      assert.equal(seen[cut + 1], '<retry>', 'the discard comes before the retry notice');
      assert.equal(seen.slice(cut + 2).join(''), 'the whole answer', 'after it, only the new reply');
      assert.equal(notices.length, 1);
      assert.equal(notices[0]!.error.kind, 'connection');
      assert.match(notices[0]!.error.message, /connection to .* was lost/);
      assert.deepEqual(
        [notices[0]!.attempt, notices[0]!.attempts, notices[0]!.discardedPartialReply],
        [2, 5, true],
      );
      assert.equal(notices[0]!.endpoint, h.llm.baseUrl);
      assert.equal(h.bodies().length, 2);
      assert.deepEqual(h.bodies()[1]!.messages, h.bodies()[0]!.messages, 'the retry sends the same request');
    });

    it('gives up on a stream that keeps dropping after deltas, discarding each partial reply', async () => {
      h.play([
        {
          fault: { disconnectAfterChunks: 2 },
          reply: { content: 'cut again and again', chunkSize: 4 },
          repeat: 3,
        },
      ]);
      const kinds: string[] = [];
      const err = await llmError(
        h.client({ maxRetries: 2 }).complete({ messages: USER }, { onDelta: (d) => kinds.push(d.type) }),
        'connection',
      );
      assert.match(err.message, /Gave up after 3 attempts/);
      assert.equal(kinds.filter((k) => k === 'discard').length, 3, JSON.stringify(kinds));
      assert.equal(kinds.at(-1), 'discard', 'the last partial reply is dropped too');
    });

    it('retries a stream that stalls mid-reply past the no-progress timeout', async () => {
      h.play([
        { fault: { stallAfterChunks: 3 }, reply: { content: 'stalls in the middle', chunkSize: 4 } },
        { reply: { content: 'second try' } },
      ]);
      const notices: LlmRetryNotice[] = [];
      const kinds: string[] = [];
      const res = await h
        .client({ timeoutMs: 200 })
        .complete(
          { messages: USER },
          { onDelta: (d) => kinds.push(d.type), onRetry: (n) => void notices.push(n) },
        );
      assert.equal(res.content, 'second try');
      assert.equal(notices[0]!.error.kind, 'timeout');
      assert.ok(notices[0]!.discardedPartialReply);
      assert.ok(kinds.includes('discard'));
    });

    it('retries a stream that drops before anything was published', async () => {
      h.play([
        { fault: { disconnectAfterChunks: 0 }, reply: { content: 'lost' } },
        { reply: { content: 'second' } },
      ]);
      const res = await h.client().complete({ messages: USER });
      assert.equal(res.content, 'second');
      assert.equal(h.bodies().length, 2);
    });

    it('reports connection when nothing listens at the base URL', async () => {
      h.play([]);
      const err = await llmError(
        h.client({ baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 1 }).complete({ messages: USER }),
        'connection',
      );
      assert.match(err.message, /Could not reach http:\/\/127\.0\.0\.1:1\/v1/);
      assert.doesNotMatch(
        err.message,
        /test-model/,
        'a connection error is about the endpoint, not the model',
      );
      assert.equal(h.sleeps.length, 1);
    });
  });

  describe('cancellation', () => {
    it('aborts promptly in the middle of a stream', async () => {
      h.play([
        { reply: { content: 'a long answer streamed slowly '.repeat(20), chunkSize: 2, delayMs: 200 } },
      ]);
      const ac = new AbortController();
      const started = Date.now();
      const deltas: LlmDelta[] = [];
      const err = await llmError(
        h.client().complete(
          { messages: USER },
          {
            signal: ac.signal,
            onDelta: (d) => {
              deltas.push(d);
              if (deltas.length === 2) ac.abort();
            },
          },
        ),
        'aborted',
      );
      assert.match(err.message, /cancelled/);
      assert.ok(Date.now() - started < 10_000, 'did not wait for the rest of the stream');
      assert.deepEqual(
        deltas.slice(2).map((d) => d.type),
        ['discard'],
        'after the abort only the discard of what was shown',
      );
    });

    it('aborts during a backoff sleep', async () => {
      h.play([{ fault: { status: 429, retryAfter: 30 } }, { reply: { content: 'never' } }]);
      const ac = new AbortController();
      const started = Date.now();
      // The real sleep this time: the abort must cut a 30 s wait short.
      const client = h.client({}, { sleep: undefined });
      setTimeout(() => ac.abort(), 100);
      await llmError(client.complete({ messages: USER }, { signal: ac.signal }), 'aborted');
      assert.ok(Date.now() - started < 10_000);
      assert.equal(h.bodies().length, 1);
    });

    it('aborts while waiting for the first byte', async () => {
      h.play([{ fault: { slowFirstByteMs: 60_000 }, reply: { content: 'slow' } }]);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const started = Date.now();
      await llmError(h.client().complete({ messages: USER }, { signal: ac.signal }), 'aborted');
      assert.ok(Date.now() - started < 10_000);
      assert.deepEqual(h.sleeps, [], 'an abort is not retried');
    });

    it('does not send anything when the signal is already aborted', async () => {
      h.play([{ reply: { content: 'x' } }]);
      await llmError(h.client().complete({ messages: USER }, { signal: AbortSignal.abort() }), 'aborted');
      assert.equal(h.bodies().length, 0);
    });
  });
});
