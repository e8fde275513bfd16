// The log's `sandbox` update in the chat: commands sandboxed is one quiet line; not sandboxed (off,
// or none can start) is a warning with the message, the fix and a way to the diagnostics.
// Screenshots at a 300 px sidebar in each theme go to test-results/webview/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { agentMessage, eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const UNAVAILABLE = {
  state: 'unavailable',
  required: false,
  message:
    "Commands run without a sandbox, so every command asks first. bubblewrap (bwrap) is not installed, so the agent's commands cannot be sandboxed.",
  fix: 'Install it: sudo apt install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora), sudo pacman -S bubblewrap (Arch).',
};
const ON = {
  state: 'on',
  message:
    'Commands run in a sandbox (bubblewrap 0.9.0): only the workspace is writable, secrets are hidden, the network is closed but for allowed hosts.',
};

const sandboxUpdate = (id: string, value: object): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'sandbox',
  value,
});

function conversation(value: object): ViewEvent[] {
  return [
    userMessage(eid(1), 'Run the tests'),
    sandboxUpdate(eid(2), value),
    agentMessage(eid(3), 'Running them now.'),
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: the sandbox notice', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 560 })));
  after(async () => h?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: without a sandbox, a warning with the fix and the diagnostics; with one, a quiet line`, async () => {
      const p = await Panel.open(h, { theme });
      await p.showConversation(conversation(UNAVAILABLE), makeHeader({ status: 'finished' }));
      const warning = p.page.getByRole('group', { name: 'Commands are not sandboxed' });
      await warning.waitFor();
      const text = await warning.innerText();
      assert.match(text, /bubblewrap \(bwrap\) is not installed/);
      assert.match(text, /Fix: Install it: sudo apt install bubblewrap/);
      await p.page.screenshot({ path: join(SHOTS, `sandbox-unavailable-${theme}.png`) });
      await p.clearPosted();
      await warning.getByRole('button', { name: 'Show Sandbox Status' }).click();
      assert.deepEqual(await p.posted(), [{ type: 'showSandboxStatus' }]);

      await p.showConversation(
        conversation({ state: 'off', message: 'The sandbox is off (logbook.sandbox.mode is "off").' }),
        makeHeader({ id: '00000000-0000-4000-8000-0000000000ff', status: 'finished' }),
      );
      assert.match(
        await p.page.getByRole('group', { name: 'Commands are not sandboxed' }).innerText(),
        /logbook\.sandbox\.mode is "off"/,
      );

      await p.showConversation(
        conversation({ ...UNAVAILABLE, required: true }),
        makeHeader({ id: '00000000-0000-4000-8000-0000000000fe', status: 'finished' }),
      );
      await p.page.getByRole('group', { name: 'Commands cannot run: no sandbox' }).waitFor();

      await p.showConversation(
        conversation(ON),
        makeHeader({ id: '00000000-0000-4000-8000-0000000000fd', status: 'finished' }),
      );
      const line = p.row('ConversationStateUpdateEvent');
      assert.equal((await line.innerText()).trim(), 'Commands run in a sandbox');
      assert.equal(await p.page.getByRole('group', { name: /sandbox/ }).count(), 0, 'no warning');
      await p.page.screenshot({ path: join(SHOTS, `sandbox-on-${theme}.png`) });
      assert.deepEqual(p.errors, []);
      await p.page.close();
    });
  }

  it("the quiet line's folded detail opens on a click, and closes on another", async () => {
    const p = await Panel.open(h);
    await p.showConversation(conversation(ON), makeHeader({ status: 'finished' }));
    const line = p.row('ConversationStateUpdateEvent');
    const toggle = line.getByRole('button', { name: 'Commands run in a sandbox' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    await p.settle();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.match(await line.locator('pre.detail').innerText({ timeout: 5_000 }), /bubblewrap 0\.9\.0/);
    await toggle.click();
    await p.settle();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await line.locator('pre.detail').count(), 0);
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });
});
