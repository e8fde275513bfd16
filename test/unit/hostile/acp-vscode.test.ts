// An external ACP agent run again on a conversation is told its earlier turns; one that stops answering (`logbook run --agent`, and the chat's agent tasks,
// share the client): after acp.replyTimeoutSeconds of silence its turn is cancelled and the run
// ends with an error that says so; what was recorded stays, and the conversation goes on.
import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { agentEnv, conversationDir } from './acp-test-agent';

describe('hostile: an external ACP agent that never answers', function () {
  this.timeout(90_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  const run = (args: string[]) =>
    runCli(['run', '--agent', 'writer', '--sandbox', 'off', ...args], {
      env: { ...agentEnv(), LOGBOOK_ACP_REPLY_TIMEOUT: '2' },
      timeoutMs: 60_000,
    });

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a silent turn ends with a clear error after the timeout; the conversation goes on`, async () => {
      const ws = realpathSync(fx.tmp());
      const started = Date.now();
      const silent = await run(['--workspace', ws, '--mode', mode, '--task', '{"silent": true}']);
      assert.ok(Date.now() - started < 30_000, 'given up long before the test timeout');
      assert.notEqual(silent.code, 0, printed(silent));
      assert.match(printed(silent), /said nothing for 2 s \(acp\.replyTimeoutSeconds\)/);
      const dir = conversationDir(ws, silent.stdout);
      const log = JSON.stringify(await readLogJson(dir));
      assert.match(log, /"key":"acp_error"[^}]*said nothing for 2 s/, 'the timeout is recorded');
      assert.match(log, /\{\\"silent\\": true\}/, "the user's task is kept");

      const next = await run(['--store', dir, '--task', '{"env": "NOTHING_SET"}']);
      assert.equal(next.code, 0, printed(next));
      const after = JSON.stringify(await readLogJson(dir));
      assert.match(after, /env: undefined/, 'the next task ran');
      assert.match(after, /said nothing for 2 s/, 'the earlier error is still there');
      const verify = await runCli(['verify', dir]);
      assert.equal(verify.code, 0, printed(verify));
    });
  }

  it('a later run on the conversation starts a new session of the agent, told the earlier turns briefly', async () => {
    const ws = realpathSync(fx.tmp());
    const first = await run(['--workspace', ws, '--task', '{"env": "NOTHING_SET"}']);
    assert.equal(first.code, 0, printed(first));
    const dir = conversationDir(ws, first.stdout);
    const next = await run(['--store', dir, '--task', '{"echo": true}']);
    assert.equal(next.code, 0, printed(next));
    const log = JSON.stringify(await readLogJson(dir));
    assert.match(log, /prompt: Earlier in this conversation/);
    assert.match(log, /User: \{\\"env\\": \\"NOTHING_SET\\"\}/, 'its earlier task');
    assert.match(log, /You: env: undefined/, 'its earlier answer');
  });
});
