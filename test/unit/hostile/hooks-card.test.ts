// A rewritten action's card, read from logs the real CLI recorded with real hook scripts, the way
// the chat reads them (webview-ui/src/state/hook-rewrites.ts): the card shows the command that ran
// and the model's own as what it asked for; a call one hook rewrote and another denied did not
// run, so its card stays the model's, with no rewrite mark. In act and plan mode.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventJson } from '../../../src/protocol/messages';
import { clearHookRewrites, hookRewrite, noteHookRun } from '../../../webview-ui/src/state/hook-rewrites';
import { printed, runCli } from '../cli/cli-runner';
import { CliFixture, onlyConversationDir, readLogJson, terminalCall } from '../cli/fixtures';
import type { Scenario } from '../../support/llm-server';

const MODES = ['act', 'plan'] as const;

const REWRITE = `#!/usr/bin/env bash
input=$(cat)
case "$input" in
  *original-words*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"say it the house way","updatedInput":{"command":"echo rewritten-words"}}}' ;;
esac
`;
const DENY = `#!/usr/bin/env node
process.stdin.resume().on('end', () => {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse',
    permissionDecision: 'deny', permissionDecisionReason: 'not today' } }));
});
`;

describe('hostile: a rewritten action in the chat', function () {
  this.timeout(60_000);
  const fx = new CliFixture();
  afterEach(() => {
    clearHookRewrites();
    fx.cleanup();
  });

  function hooksEnv(scripts: Record<string, string>): Record<string, string> {
    const dir = fx.tmp('logbook-hook-scripts-');
    const hooks = Object.entries(scripts).map(([name, body]) => {
      const file = join(dir, name);
      writeFileSync(file, body);
      chmodSync(file, 0o755);
      return { type: 'command', command: file };
    });
    const home = fx.tmp('logbook-hooks-config-');
    mkdirSync(join(home, 'logbook'), { recursive: true });
    writeFileSync(
      join(home, 'logbook', 'config.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } }),
    );
    return { XDG_CONFIG_HOME: home };
  }

  const scenario = (name: string): Scenario => ({
    name,
    turns: [
      { match: { lastRole: 'user' }, reply: { toolCalls: [terminalCall('c_e', 'echo original-words')] } },
      { match: { lastRole: 'tool' }, reply: { content: 'done' } },
    ],
  });

  /** Runs the task; returns the recorded action, the model's result, and the log read as the chat reads it. */
  async function run(mode: string, scripts: Record<string, string>) {
    const ws = fx.tmp();
    const env = { ...(await fx.startLlm(scenario(`card-${mode}`))), ...hooksEnv(scripts) };
    const r = await runCli(
      ['run', '--workspace', ws, '--confirm', 'never', '--mode', mode, '--task', 'say it'],
      {
        env,
      },
    );
    assert.equal(r.code, 0, printed(r));
    const events = (await readLogJson(onlyConversationDir(ws))) as EventJson[];
    for (const e of events) noteHookRun(e);
    const action = events.find((e) => e.kind === 'ActionEvent' && e['tool_name'] === 'terminal');
    assert.ok(action, 'the model made its call');
    const result = JSON.stringify(
      events.find((e) => e.kind === 'ObservationEvent' || e.kind === 'AgentErrorEvent'),
    );
    return { action, result };
  }

  for (const mode of MODES) {
    it(`the card of a rewritten command shows what ran, the hook and its reason, and what was asked (${mode} mode)`, async () => {
      const { action, result } = await run(mode, { 'rewrite.sh': REWRITE });
      assert.match(result, /rewritten-words/);
      const card = hookRewrite(action);
      assert.ok(card, 'the card is marked as rewritten');
      assert.equal(card.action['command'], 'echo rewritten-words');
      assert.deepEqual(card.original, { command: 'echo original-words' });
      assert.match(card.by, /rewrite\.sh$/);
      assert.equal(card.reason, 'say it the house way');
    });

    it(`a call one hook rewrote and another denied did not run: its card stays the model's (${mode} mode)`, async () => {
      const { action, result } = await run(mode, { 'rewrite.sh': REWRITE, 'deny.js': DENY });
      assert.match(result, /Blocked by the hook .*deny\.js.*not today/);
      assert.doesNotMatch(result, /rewritten-words/);
      assert.equal(hookRewrite(action), undefined);
    });
  }
});
