// An external ACP agent under `logbook run --agent` reads a running command's output: terminal/create
// answers once the sandboxed shell started the command, and terminal/output gives what it printed
// so far, before it ends; its exit and full output still come from the recorded result.
import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { printed } from '../cli/cli-runner';
import { CliFixture, readLogJson } from '../cli/fixtures';
import { conversationDir, runTestAgent } from './acp-test-agent';

describe('hostile: live output of an external agent’s command under logbook run --agent', function () {
  this.timeout(120_000);
  const fx = new CliFixture();
  afterEach(() => fx.cleanup());

  for (const mode of ['act', 'plan'] as const) {
    it(`${mode} mode: a slow command's first line reaches the agent while it still runs`, async () => {
      const ws = realpathSync(fx.tmp());
      // The second line comes 3 s after the first: the agent polls every 100 ms meanwhile.
      const ask = { poll: { command: 'echo first-line; sleep 3; echo second-line' } };
      const r = await runTestAgent(
        ws,
        mode,
        ask,
        ['--sandbox', 'required', '--confirmation-mode', 'never'],
        90_000,
      );
      assert.equal(r.code, 0, printed(r));
      const log = JSON.stringify(await readLogJson(conversationDir(ws, r.stdout)));
      assert.match(
        log,
        /poll: while running \[first-line\] exit 0 output: first-line\\nsecond-line/,
        printed(r),
      );
      assert.ok(log.includes('"tool_name":"terminal"'), 'the command was an action of the terminal tool');
    });
  }
});
