// LOGBOOK_PROMPT_CACHING and LOGBOOK_REASONING_EFFORT reach the endpoint: the cache key is the
// conversation's own id, the same for every request of the conversation (also after a resume).
import * as assert from 'node:assert/strict';
import { conversationId } from '../../../src/host/node/cli/conversation-dir';
import { printed, runCli } from './cli-runner';
import { CliFixture, onlyConversationDir, terminalCall } from './fixtures';

describe('logbook run: prompt-cache hints and reasoning effort', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  it('sends the conversation id as prompt_cache_key and the effort on every request', async () => {
    const env = await fx.startLlm({
      name: 'cli-hints',
      turns: [{ reply: { toolCalls: [terminalCall('c1', 'echo hi')] } }],
      fallback: { content: 'Done.' },
    });
    const ws = fx.tmp();
    const r = await runCli(['run', '--workspace', ws, '--task', 'say hi', '--confirm', 'never'], {
      env: { ...env, LOGBOOK_PROMPT_CACHING: 'key', LOGBOOK_REASONING_EFFORT: 'low' },
    });
    assert.equal(r.code, 0, printed(r));
    const bodies = fx.llm!.completionBodies();
    assert.equal(bodies.length, 2, 'one request per step');
    const id = conversationId(onlyConversationDir(ws));
    for (const body of bodies) {
      assert.equal(body.prompt_cache_key, id);
      assert.equal(body.reasoning_effort, 'low');
    }
  });

  it('sends no hints to an unknown endpoint by default', async () => {
    const env = await fx.startLlm({ name: 'cli-no-hints', turns: [], fallback: { content: 'Done.' } });
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'say hi'], { env });
    assert.equal(r.code, 0, printed(r));
    const [body] = fx.llm!.completionBodies();
    assert.equal(body?.prompt_cache_key, undefined);
    assert.equal(body?.reasoning_effort, undefined);
  });

  it('refuses an unknown effort before calling the model', async () => {
    const env = await fx.startLlm({ name: 'cli-bad-effort', turns: [], fallback: { content: 'Done.' } });
    const r = await runCli(['run', '--workspace', fx.tmp(), '--task', 'say hi'], {
      env: { ...env, LOGBOOK_REASONING_EFFORT: 'extreme' },
    });
    assert.equal(r.code, 1, printed(r));
    assert.match(r.stderr, /LOGBOOK_REASONING_EFFORT must be one of none, minimal, low, medium, high, xhigh/);
    assert.equal(fx.llm!.completionBodies().length, 0);
  });
});
