// Hooks in the chat (docs/HOOKS.md): a PreToolUse hook that blocked an action is a line naming the
// event, the hook and "blocked" with its reason, above the action's card whose result says
// "Blocked by the hook"; a rewrite shows what runs instead; a hook's `continue: false` is the run's
// end, "A hook stopped the agent", with its reason. Screenshots at a 300 px sidebar in each theme
// go to test-results/webview/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, terminalAction, terminalObservation, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const hookRun = (id: string, actionId: string, value: object): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'hook_run',
  value: {
    event: 'PreToolUse',
    origin: 'user',
    matcher: 'Bash',
    command: '/home/dev/.config/hooks/deny-rm.sh',
    action_id: actionId,
    tool_name: 'terminal',
    input_sha256: 'a'.repeat(64),
    exit_code: 2,
    duration_ms: 12,
    ...value,
  },
});

/** An action a policy refused, as the dispatcher records it: an error with the reason, no exit code. */
function refused(id: string, actionId: string, reason: string): EventJson {
  const seen = terminalObservation(id, actionId, reason, null);
  const observation = {
    kind: 'TerminalObservation',
    content: [{ type: 'text', text: reason }],
    is_error: true,
    command: 'rm -rf build',
  };
  return { ...seen, observation };
}

function conversation(): ViewEvent[] {
  const rm = eid(2);
  const ls = eid(5);
  return [
    userMessage(eid(1), 'Clean up the build folder'),
    terminalAction(rm, 'rm -rf build', { summary: 'Remove the build folder' }),
    hookRun(eid(3), rm, {
      status: 'blocked',
      decision: 'deny',
      reason: "rm -rf is not allowed by the team's policy",
    }),
    refused(
      eid(4),
      rm,
      "Blocked by the hook `/home/dev/.config/hooks/deny-rm.sh`: rm -rf is not allowed by the team's policy",
    ),
    terminalAction(ls, 'ls buld', { summary: 'List the build folder' }),
    hookRun(eid(6), ls, {
      command: 'node rewrite.js',
      status: 'ok',
      decision: 'none',
      exit_code: 0,
      updated_input: { command: 'ls build' },
    }),
    terminalObservation(eid(7), ls, 'main.js\n', 0),
    {
      kind: 'ConversationErrorEvent',
      id: eid(8),
      source: 'environment',
      code: 'hook_stop',
      detail: 'the hook `check.sh` (PostToolUse) stopped the agent: the build is red, fix it first',
    },
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: hooks in the chat', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 1100 })));
  after(async () => h?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: a blocked action shows the hook and its reason; a rewrite what runs; a stop why`, async () => {
      const p = await Panel.open(h, { theme });
      await p.showConversation(conversation(), makeHeader({ status: 'error' }));
      const text = await p.page.locator('main').innerText();
      assert.match(text, /PreToolUse terminal hook `deny-rm\.sh`: blocked/);
      assert.match(text, /rm -rf is not allowed by the team's policy/);
      assert.match(text, /Blocked by the hook/);
      assert.match(text, /did not run/i);
      assert.doesNotMatch(text, /Still running/);
      assert.match(text, /hook `node rewrite\.js`: rewrote the call/);
      assert.match(text, /A hook stopped the agent/);
      assert.match(text, /stopped the agent: the build is red, fix it first/);
      assert.doesNotMatch(text, /State: hook_run/);
      await p.page.screenshot({ path: join(SHOTS, `hook-blocked-${theme}.png`), fullPage: true });
      assert.deepEqual(p.errors, []);
    });
  }
});
