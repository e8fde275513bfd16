// A call a PreToolUse hook rewrote (docs/HOOKS.md): its card shows what ran, the rewritten command
// or file edit, marked "Rewritten by the hook" with the hook's reason, and what the model had asked
// for on a muted line below; the model's summary, which described its own call, is not shown. A
// hook that also denied the call leaves the card as the model made it (nothing ran). Screenshots at
// a 300 px sidebar in each theme go to test-results/webview/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  editAction,
  eid,
  makeHeader,
  terminalAction,
  terminalObservation,
  userMessage,
} from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const hookRun = (id: string, actionId: string, tool: string, value: object): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'hook_run',
  value: {
    event: 'PreToolUse',
    origin: 'project',
    matcher: '',
    command: '/home/dev/repo/.logbook/hooks/fix-call.sh',
    action_id: actionId,
    tool_name: tool,
    input_sha256: 'b'.repeat(64),
    status: 'ok',
    decision: 'none',
    exit_code: 0,
    duration_ms: 9,
    ...value,
  },
});

function conversation(): ViewEvent[] {
  const test = eid(2);
  const edit = eid(5);
  const rm = eid(7);
  return [
    userMessage(eid(1), 'Run the tests, then fix the typo'),
    terminalAction(test, 'npm test', { summary: 'Run the whole suite' }),
    hookRun(eid(3), test, 'terminal', {
      reason: 'the whole suite is too slow here; the unit tests run instead',
      updated_input: { command: 'npm run test:unit -- --bail' },
    }),
    terminalObservation(eid(4), test, '12 passing\n', 0),
    editAction(edit, 'src/app.ts', 'cosnt', 'const'),
    hookRun(eid(6), edit, 'file_editor', { updated_input: { file_path: 'src/main.ts' } }),
    terminalAction(rm, 'rm -rf dist', { summary: 'Clean the output' }),
    hookRun(eid(8), rm, 'terminal', { updated_input: { command: 'rm -rf ./dist' } }),
    hookRun(eid(9), rm, 'terminal', {
      status: 'blocked',
      decision: 'deny',
      reason: 'no rm -rf',
      exit_code: 2,
    }),
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: a card whose call a hook rewrote', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 900 })));
  after(async () => h?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: shows the rewritten call, the hook and its reason, and what the model asked for`, async () => {
      const p = await Panel.open(h, { theme });
      await p.showConversation(conversation(), makeHeader({ status: 'idle' }));
      const cards = p.page.locator('.card.action');
      const test = cards.nth(0);
      assert.equal(
        (await test.locator('pre.command code').innerText()).trim(),
        'npm run test:unit -- --bail',
        'the command block shows what ran',
      );
      const testText = await test.innerText();
      assert.match(
        testText,
        /Rewritten by the hook `fix-call\.sh`: the whole suite is too slow here; the unit tests run instead/,
      );
      assert.match(testText, /The model asked for: npm test/);
      assert.doesNotMatch(testText, /Run the whole suite/);

      const edit = cards.nth(1);
      // textContent: the folder and the name are laid out as two boxes (innerText breaks between them).
      assert.equal(await edit.locator('.file-path').textContent(), 'src/main.ts');
      assert.match(await edit.innerText(), /Rewritten by the hook `fix-call\.sh`/);
      assert.match(await edit.innerText(), /The model asked for: path: src\/app\.ts/);

      // Denied as well: nothing ran, so the card stays the model's call, with no rewrite mark.
      const rm = cards.nth(2);
      assert.equal((await rm.locator('pre.command code').innerText()).trim(), 'rm -rf dist');
      assert.doesNotMatch(await rm.innerText(), /Rewritten by the hook/);

      await test.screenshot({ path: join(SHOTS, `hook-rewritten-card-${theme}.png`) });
      await p.page.screenshot({ path: join(SHOTS, `hook-rewritten-${theme}.png`), fullPage: true });
      assert.deepEqual(p.errors, []);
    });
  }
});
