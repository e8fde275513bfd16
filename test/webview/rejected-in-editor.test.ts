// A change the user rejected in the editor's review is marked on the card of the action that made
// it, and said in the feed after the finish, so "Finished" does not hide it (live and on reload).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  agentMessage,
  CONVERSATION_ID,
  editAction,
  editObservation,
  eid,
  makeHeader,
  MATH_AFTER,
  MATH_BEFORE,
  userMessage,
} from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const EDIT = eid(2);
const rejected: EventJson = {
  kind: 'ConversationStateUpdateEvent',
  id: eid(5),
  source: 'user',
  key: 'review_rejected',
  value: { path: 'src/math.js', action_ids: [EDIT], whole_file: false },
};

const events: ViewEvent[] = [
  userMessage(eid(1), 'Reject non-numbers in add()'),
  editAction(
    EDIT,
    'src/math.js',
    'return a + b;',
    "if (typeof a !== 'number') throw new TypeError();\n  return a + b;",
  ),
  editObservation(eid(3), EDIT, 'src/math.js', MATH_BEFORE, MATH_AFTER),
  agentMessage(eid(4), 'Done. add() now rejects non-numbers.'),
].map((event, seq) => ({ seq, event }));

describe('webview: a change rejected in the editor', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 800 })));
  after(async () => h?.close());

  it('is marked on its card and in the feed, live and after a reload', async () => {
    const live = await Panel.open(h, { theme: 'light' });
    await live.showConversation(events, makeHeader({ status: 'finished' }));
    const card = live.row('ActionEvent');
    await card.waitFor();
    assert.equal(await card.getByText(/Rejected in the editor/).count(), 0);
    await live.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [{ seq: 4, event: rejected }],
    });
    await card.getByText('Rejected in the editor (in part or whole)').waitFor({ timeout: 5_000 });
    await live.page.getByText('You rejected a change to src/math.js in the editor').waitFor();
    // The header says it beside "Finished".
    await live.page.locator('header').getByText('1 change rejected').waitFor({ timeout: 5_000 });
    await live.page.screenshot({ path: join(SHOTS, 'rejected-in-editor-light-300.png') });
    assert.deepEqual(live.errors, []);
    await live.page.close();

    for (const theme of ['dark', 'high-contrast']) {
      const themed = await Panel.open(h, { theme });
      await themed.showConversation(
        [...events, { seq: 4, event: rejected }],
        makeHeader({ status: 'finished' }),
      );
      await themed.page.locator('header').getByText('1 change rejected').waitFor({ timeout: 5_000 });
      await themed.page.screenshot({ path: join(SHOTS, `rejected-in-editor-${theme}-300.png`) });
      await themed.page.close();
    }

    const reloaded = await Panel.open(h);
    await reloaded.showConversation(
      [...events, { seq: 4, event: rejected }],
      makeHeader({ status: 'finished' }),
    );
    await reloaded
      .row('ActionEvent')
      .getByText('Rejected in the editor (in part or whole)')
      .waitFor({ timeout: 5_000 });
    assert.deepEqual(reloaded.errors, []);
    await reloaded.page.close();
  });
});
