// The CLI's bounds on a model reply come from the environment, and a run cut by one stops with an
// error that says which limit it hit; a dropped stream is retried and the retry is printed.
import * as assert from 'node:assert/strict';
import { jsonLines, printed, runCli } from './cli-runner';
import { CliFixture } from './fixtures';

describe('logbook run: limits on model replies', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('stops an endless reply at LOGBOOK_REPLY_TIMEOUT_SECONDS and exits 3', async () => {
    const env = await fx.startLlm({
      name: 'cli-endless',
      turns: [{ fault: { endless: 'content' }, reply: { content: 'more ', delayMs: 5 } }],
    });
    const started = Date.now();
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'talk', '--json'], {
      env: { ...env, LOGBOOK_REPLY_TIMEOUT_SECONDS: '1' },
    });
    assert.equal(r.code, 3, printed(r));
    const error = jsonLines(r).find((e) => e.kind === 'ConversationErrorEvent');
    assert.equal(error?.code, 'llm_timeout', printed(r));
    assert.match(String(error?.detail), /still streaming after 1000 ms, the time limit for one reply/);
    assert.ok(Date.now() - started < 15_000);
  });

  it('stops a reply at LOGBOOK_MAX_REPLY_BYTES', async () => {
    const env = await fx.startLlm({
      name: 'cli-huge',
      turns: [{ fault: { endless: 'content' }, reply: { content: 'x'.repeat(100) } }],
    });
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'talk'], {
      env: { ...env, LOGBOOK_MAX_REPLY_BYTES: '20000' },
    });
    assert.equal(r.code, 3, printed(r));
    assert.ok(
      r.lines.some((l) => /^\[error\] llm_timeout: .*passed 19\.5 KiB, the size limit/.test(l)),
      printed(r),
    );
  });

  it('prints a retry of a dropped stream and finishes with one reply', async () => {
    const env = await fx.startLlm({
      name: 'cli-drop',
      turns: [
        { fault: { disconnectAfterChunks: 2 }, reply: { content: 'First half of a lost answer.' } },
        { reply: { content: 'The answer, whole.' } },
      ],
    });
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'talk'], { env });
    assert.equal(r.code, 0, printed(r));
    assert.ok(
      r.lines.some((l) => /^\[llm\] The connection to .* was lost.* Retrying in \d+ s \(2 of 5\)\.$/.test(l)),
      printed(r),
    );
    assert.equal(r.lines.filter((l) => l.startsWith('[agent] ')).length, 1, printed(r));
    assert.ok(!r.stdout.includes('First half'), printed(r));
  });

  it('refuses a limit that is not a positive whole number', async () => {
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'talk'], {
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', LOGBOOK_MAX_REPLY_BYTES: '4MB' },
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /LOGBOOK_MAX_REPLY_BYTES must be a positive whole number of bytes, got "4MB"/);
  });
});
