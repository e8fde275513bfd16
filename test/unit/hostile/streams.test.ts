// A hostile or broken endpoint must not hold a step forever or fill memory: every streamed reply is
// bounded in time and size, and only parts of the reply count as progress (keep-alives do not).
import assert from 'node:assert/strict';
import { type LlmDelta, LlmError } from '../../../src/core/llm';
import { rejectionOf, USER, useScriptedLlm } from '../llm/harness';

/** Runs `call`, sampling RSS meanwhile; returns its rejection, how long it took and the peak growth. */
async function measured(call: () => Promise<unknown>) {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = Date.now();
  try {
    const err = await rejectionOf(call());
    assert.ok(err instanceof LlmError, `expected an LlmError, got ${String(err)}`);
    return { err, ms: Date.now() - started, grewMb: (peak - baseline) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}

// The time bounds are generous on purpose (a loaded two-core runner is slow): each stream is endless,
// so a limit that did not hold would run into the test's own timeout, never under the bound.
describe('hostile streams: every reply is bounded', function () {
  this.timeout(30_000);
  const h = useScriptedLlm();

  it('cuts an endless content stream at the size cap, with a clear error and bounded memory', async () => {
    h.play([{ fault: { endless: 'content' }, reply: { content: 'all work and no play '.repeat(20) } }]);
    let shown = 0;
    const onDelta = (d: LlmDelta) => void (d.type === 'text' && (shown += d.text.length));
    const { err, ms, grewMb } = await measured(() =>
      h.client({ maxReplyBytes: 512 * 1024 }).complete({ messages: USER }, { onDelta }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /passed 512 KiB, the size limit for one reply; it was stopped/);
    assert.match(err.message, /127\.0\.0\.1:\d+\/v1/, 'names the endpoint');
    assert.ok(shown >= 512 * 1024 && shown < 600 * 1024, `stopped right after the cap (${shown} chars)`);
    assert.ok(ms < 10_000, `took ${ms} ms`);
    assert.ok(grewMb < 150, `memory grew by ${grewMb.toFixed(0)} MB`);
    assert.equal(h.bodies().length, 1, 'a runaway reply is not tried again');
  });

  it('stops a reply that keeps streaming past the time limit', async () => {
    h.play([{ fault: { endless: 'content' }, reply: { content: 'tick ', delayMs: 10 } }]);
    const { err, ms } = await measured(() =>
      h.client({ replyTimeoutMs: 500, timeoutMs: 5_000 }).complete({ messages: USER }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /still streaming after 500 ms, the time limit for one reply/);
    assert.ok(ms >= 450 && ms < 10_000, `took ${ms} ms`);
    assert.equal(h.bodies().length, 1);
  });

  it('ends a keep-alive-only stream at the configured time limit, not after retries', async () => {
    h.play([{ fault: { endless: 'keep-alive' }, reply: { delayMs: 20 }, repeat: 5 }]);
    const { err, ms } = await measured(() =>
      h.client({ replyTimeoutMs: 600, timeoutMs: 10_000 }).complete({ messages: USER }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /still streaming after 600 ms/);
    assert.ok(ms >= 550 && ms < 10_000, `took ${ms} ms`);
    assert.equal(h.bodies().length, 1);
  });

  it('does not count keep-alive comments as progress', async () => {
    h.play([{ fault: { endless: 'keep-alive' }, reply: { delayMs: 20 } }]);
    const { err, ms } = await measured(() =>
      h.client({ timeoutMs: 300, maxRetries: 0 }).complete({ messages: USER }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /sent nothing of the reply for 300 ms/);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });

  it('does not count chunks with an empty delta as progress', async () => {
    h.play([{ fault: { endless: 'empty-chunks' }, reply: { delayMs: 20 } }]);
    const { err, ms } = await measured(() =>
      h.client({ timeoutMs: 300, maxRetries: 0 }).complete({ messages: USER }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /sent nothing of the reply for 300 ms/);
    assert.ok(ms < 10_000, `took ${ms} ms`);
  });

  it('stops one endless event-stream line before it fills memory', async () => {
    h.play([{ fault: { endless: 'one-line' }, reply: { content: 'y' } }]);
    const { err, ms, grewMb } = await measured(() =>
      h.client({ maxReplyBytes: 64 * 1024, timeoutMs: 5_000, maxRetries: 0 }).complete({ messages: USER }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /the size limit for one reply/);
    assert.ok(ms < 10_000, `took ${ms} ms`);
    assert.ok(grewMb < 150, `memory grew by ${grewMb.toFixed(0)} MB`);
  });
});
