// A conversation that runs on an agent-server, as the chat shows it at 300 px: its events render as
// a local conversation's, the header names the server, and a held command's card gives Logbook's
// rating with its reason beside the server's own; the composer's Plan/Act toggle switches its mode. Screenshots of Light, Dark and High Contrast go
// to test-results/webview/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, terminalAction, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const SERVER = 'http://build-box:8000';
const received = (e: EventJson, n: number): EventJson => ({
  ...e,
  received_from: { server: SERVER, at: new Date(Date.UTC(2026, 10, 29, 8, 0, n)).toISOString() },
});

const held = eid(3);
const events: ViewEvent[] = [
  userMessage(eid(1), 'write out.txt'),
  terminalAction(held, 'echo remote-ok > out.txt', { summary: 'write out.txt', risk: 'UNKNOWN' }),
].map((e, seq) => ({ seq, event: received(e, seq) }));

const header = makeHeader({
  title: 'write out.txt',
  status: 'waiting_for_confirmation',
  pendingActionIds: [held],
  pendingRisks: [{ actionId: held, risk: 'MEDIUM', reason: 'writes to out.txt', byRules: true }],
  model: { name: SERVER, provider: 'remote' },
});

describe('webview: a remote conversation', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  after(async () => h?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`${theme}: the held command shows Logbook's rating and the server's; the header names the server`, async () => {
      const p = await Panel.open(h, { theme });
      try {
        await p.showConversation(events, header);
        const card = p.page.locator('article[data-kind="ActionEvent"]').filter({ hasText: 'write out.txt' });
        const line = (await card.locator('.risk-line').innerText()).replace(/\s+/g, ' ').trim();
        assert.equal(line, "MEDIUM by Logbook's rules: writes to out.txt (the server said UNKNOWN)");
        const model = p.page.locator('.model-button');
        assert.equal(await model.getAttribute('title'), `Runs on the agent-server at ${SERVER}`);
        assert.equal(await p.page.locator('article[data-kind="MessageEvent"]').count(), 1, 'the task shown');
        // Confirm and Reject, but no local allow rule: the server's policy decides what it asks.
        const bar = p.page.locator('section.approval');
        assert.equal(await bar.getByRole('button', { name: 'Confirm' }).count(), 1);
        assert.equal(await bar.locator('.link-button').count(), 0, 'no "Always allow" for a remote action');
        // Plan mode holds there too (Logbook rejects what the server holds that writes or runs).
        const plan = p.page.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' });
        assert.equal(await plan.getAttribute('aria-pressed'), 'false');
        await plan.click();
        const posted = await p.posted();
        assert.deepEqual(posted[posted.length - 1], {
          type: 'setMode',
          conversationId: header.id,
          mode: 'plan',
        });
        await p.page.screenshot({ path: join(SHOTS, `remote-held-${theme}-300.png`) });
        assert.deepEqual(p.errors, [], 'no uncaught page errors');
      } finally {
        await p.page.close();
      }
    });
  }
});
