// A restore says where it went back to in the user's words, its undo reads differently (and offers
// Redo, not a second Undo), and the Undo stays on the restore's line without hover. Where no pointer
// hovers (touch), a row's Fork and Restore show without it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { CONVERSATION_ID, editAction, eid, makeHeader, terminalAction, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const restore = (id: string, restoredTo: string): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'user',
  key: 'checkpoint',
  value: { checkpoint: 'c'.repeat(40), reason: 'restore', restored_to: restoredTo, files: 2, changes: [] },
});

/** The checkpoint the host takes before an action runs: what "Restore files to here" names. */
const checkpointBefore = (id: string, actionId: string): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'checkpoint',
  value: { checkpoint: 'b'.repeat(40), reason: 'action', action_id: actionId, files: 2, changes: [] },
});

const ACTION = eid(2);
const BEFORE = eid(5);
const RESTORE = eid(3);

function restoredThenUndone(): ViewEvent[] {
  return [
    userMessage(eid(1), 'Add subtract() to src/math.js'),
    terminalAction(ACTION, 'npm test', { summary: 'Run the tests', risk: 'LOW' }),
    checkpointBefore(BEFORE, ACTION),
    // As the editor records it: the restore names the checkpoint event before the action.
    restore(RESTORE, BEFORE),
    restore(eid(4), RESTORE),
  ].map((event, seq) => ({ seq, event }));
}

declare function getComputedStyle(el: unknown): { opacity: string };
declare function matchMedia(query: string): { matches: boolean };

describe('webview: restore lines', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  after(async () => h?.close());

  it('names what a restore went back to, tells its undo apart, and keeps Undo on the line', async () => {
    for (const theme of ['light', 'dark', 'high-contrast']) {
      const p = await Panel.open(h, { theme });
      await p.showConversation(restoredThenUndone(), makeHeader({ status: 'idle' }));
      const lines = p.row('ConversationStateUpdateEvent');
      await lines.nth(1).waitFor();
      const texts = await lines.locator('.notice').allInnerTexts();
      assert.match(texts[0]!, /Files restored to before: npm test/);
      assert.match(texts[1]!, /Restore undone/);
      assert.doesNotMatch(texts.join('\n'), /c{40}|ccccccc/, 'no hash');

      // Nothing hovered or focused: each restore line shows its Undo, and it undoes that restore.
      await p.page.mouse.move(0, 0);
      const undo = lines.nth(0).getByRole('button', { name: /^Undo:/ });
      assert.equal(await undo.evaluate((el) => getComputedStyle(el.parentElement).opacity), '1');
      assert.equal((await undo.innerText()).trim(), 'Undo');
      await p.page.screenshot({ path: join(SHOTS, `restore-lines-${theme}-300.png`) });
      await undo.click();
      assert.deepEqual((await p.posted()).at(-1), {
        type: 'restoreFiles',
        conversationId: CONVERSATION_ID,
        eventId: RESTORE,
      });
      // An action's tools still wait for hover or focus where a pointer hovers.
      const actionTools = p.row('ActionEvent').locator('.row-tools');
      assert.equal(await actionTools.evaluate((el) => getComputedStyle(el).opacity), '0');
      assert.deepEqual(p.errors, []);
      await p.page.close();
    }
  });

  it('offers Redo on an undo (it restores again), and Undo on that redo', async () => {
    const p = await Panel.open(h);
    const REDO = eid(6);
    const events = [...restoredThenUndone().map((v) => v.event), restore(REDO, eid(4))];
    await p.showConversation(
      events.map((event, seq) => ({ seq, event })),
      makeHeader({ status: 'idle' }),
    );
    const lines = p.row('ConversationStateUpdateEvent');
    const button = (line: number, name: RegExp) => lines.nth(line).getByRole('button', { name });
    await lines.nth(2).waitFor();
    await p.page.mouse.move(0, 0);
    const texts = await lines.locator('.notice').allInnerTexts();
    assert.match(texts[1]!, /Restore undone/);
    // The redo puts back what the restore did: it reads as that restore.
    assert.match(texts[2]!, /Files restored to before: npm test/);

    // The undo's line: no second Undo, a Redo that says what it does.
    assert.equal(await button(1, /^Undo/).count(), 0);
    const redo = button(1, /^Redo:/);
    assert.equal((await redo.innerText()).trim(), 'Redo');
    assert.match((await redo.getAttribute('aria-label')) ?? '', /restore what this line undid/);
    await redo.click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'restoreFiles',
      conversationId: CONVERSATION_ID,
      eventId: eid(4),
    });
    // The redo's line undoes it again; the restore's own line still offers its Undo.
    assert.equal(await button(2, /^Redo/).count(), 0);
    assert.equal((await button(2, /^Undo:/).innerText()).trim(), 'Undo');
    assert.equal(await button(0, /^Undo:/).count(), 1);
    // The details say the same.
    await lines.nth(1).locator('.collapsible-toggle').click();
    assert.match(await lines.nth(1).locator('pre.detail').innerText(), /Redo on this line/);
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });

  it('renders restores that name each other (a tampered log) without hanging', async () => {
    const p = await Panel.open(h);
    const events = [userMessage(eid(1), 'Tidy up'), restore(eid(2), eid(3)), restore(eid(3), eid(2))];
    await p.showConversation(
      events.map((event, seq) => ({ seq, event })),
      makeHeader({ status: 'idle' }),
    );
    const lines = p.row('ConversationStateUpdateEvent');
    await lines.nth(1).waitFor({ timeout: 5_000 });
    assert.equal(await lines.count(), 2);
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });

  it("names the point by what the action did, not by the model's summary of it", async () => {
    const p = await Panel.open(h);
    const events: ViewEvent[] = [
      userMessage(eid(1), 'Tidy up'),
      terminalAction(ACTION, 'rm -rf src', { summary: 'Run the tests', risk: 'LOW' }),
      restore(RESTORE, ACTION),
      { ...editAction(eid(5), '.env', 'A=1', 'A=2'), summary: 'Fix a typo in the README' },
      restore(eid(6), eid(5)),
    ].map((event, seq) => ({ seq, event }));
    await p.showConversation(events, makeHeader({ status: 'idle' }));
    const lines = p.row('ConversationStateUpdateEvent');
    await lines.nth(1).waitFor();
    assert.match(await lines.nth(0).innerText(), /Files restored to before: rm -rf src/);
    assert.match(await lines.nth(1).innerText(), /Files restored to before: \.env/);
    await p.page.close();
  });

  it('shows Fork and Restore without hover on a touch screen', async () => {
    const page = await h.context.newPage();
    const cdp = await h.context.newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    await cdp.send('Emulation.setEmitTouchEventsForMouse', { enabled: true, configuration: 'mobile' });
    const p = new Panel(page);
    await page.goto(h.server.pageUrl({}));
    await p.waitForReady();
    assert.equal(await page.evaluate(() => matchMedia('(hover: none)').matches), true, 'no hover here');
    await p.showConversation(restoredThenUndone().slice(0, 2), makeHeader({ status: 'idle' }));
    const tools = p.row('ActionEvent').locator('.row-tools');
    await tools.waitFor({ state: 'attached' });
    assert.equal(await tools.evaluate((el) => getComputedStyle(el).opacity), '1');
    assert.equal(
      (await tools.getByRole('button', { name: 'Restore files to here' }).innerText()).trim(),
      'Restore',
    );
    assert.deepEqual(p.errors, []);
    await page.close();
  });
});
