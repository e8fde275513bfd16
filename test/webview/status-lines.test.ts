// Status changes that tell the reader nothing (the run starting after each message, going idle,
// waiting for approval, which the waiting card says) get no line of their own; paused, finished,
// error and stuck do. Hiding is
// rendering only: the events stay held and saved, positions count the rows shown, continuing from a
// row keeps the hidden events before it, and a hidden event found altered still marks a row.
import assert from 'node:assert/strict';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import {
  agentMessage,
  CONVERSATION_ID,
  eid,
  makeHeader,
  terminalAction,
  terminalObservation,
  userMessage,
} from './harness/events';
import { type Harness, Panel, startHarness } from './support';

const status = (id: string, value: string): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'environment',
  key: 'execution_status',
  value,
});

/** Two turns as the agent records them: every user message is followed by "running". */
function twoTurns(): ViewEvent[] {
  const action = eid(6);
  return [
    userMessage(eid(1), 'Run the tests'),
    status(eid(2), 'running'),
    agentMessage(eid(3), 'Running them now.'),
    terminalAction(action, 'npm test', { summary: 'Run the tests', risk: 'MEDIUM' }),
    status(eid(7), 'waiting_for_confirmation'),
    status(eid(8), 'running'),
    terminalObservation(eid(9), action, 'ok 12 tests', 0),
    agentMessage(eid(10), 'All 12 tests pass.'),
    status(eid(11), 'finished'),
    userMessage(eid(12), 'Thanks'),
    status(eid(13), 'idle'),
    status(eid(14), 'RUNNING'),
    agentMessage(eid(15), 'You are welcome.'),
    status(eid(16), 'finished'),
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: status lines', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 1_600 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, [], 'no uncaught page errors');
    await p.page.close();
  });

  it('shows no line for the run starting or going idle, and keeps the ones that say something', async () => {
    const events = twoTurns();
    await p.showConversation(events, makeHeader({ status: 'finished' }));
    const lines = p.row('ConversationStateUpdateEvent');
    // Only the newest status is "Status: …"; the ones the conversation left read as history.
    assert.deepEqual(await lines.allInnerTexts(), ['Finished', 'Status: Finished']);
    assert.equal(
      await p.page.getByText(/Status:.*(Running|Idle)/).count(),
      0,
      'no Running or Idle line anywhere',
    );

    // Positions count what is shown: 1..n without gaps, n the number of rows.
    const rows = p.page.locator('article.row');
    const n = await rows.count();
    assert.equal(n, 8, 'two user messages, three answers, one card, two status lines');
    for (let i = 0; i < n; i++) {
      assert.equal(await rows.nth(i).getAttribute('aria-posinset'), String(i + 1));
      assert.equal(await rows.nth(i).getAttribute('aria-setsize'), String(n));
    }
    assert.equal(await p.page.locator('.feed').getAttribute('data-last-seq'), String(events.length - 1));

    // The hidden updates are still held and saved with the rest: nothing is dropped from the log.
    const saved = await p.waitForState((s) => (s?.events.length ?? 0) === events.length);
    assert.deepEqual(
      saved!.events.filter((e) => e.event['value'] === 'running').map((e) => e.event.id),
      [eid(2), eid(8)],
    );
  });

  it('continuing from a row keeps the hidden update before it; an altered hidden update marks the row before', async () => {
    const events = twoTurns();
    await p.showConversation(events, makeHeader({ status: 'finished' }));
    const answer = p.row('MessageEvent').filter({ hasText: 'Running them now.' });
    await answer.hover();
    await answer.getByRole('button', { name: 'Continue from here' }).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'forkFrom',
      conversationId: CONVERSATION_ID,
      eventId: eid(3),
    });

    await p.host({
      type: 'header',
      header: makeHeader({ status: 'finished', brokenAt: { seq: 1, id: eid(2), reason: 'content changed' } }),
    });
    const marked = p.page.locator('article.row-tampered');
    await marked.waitFor();
    assert.match(await marked.innerText(), /Not as signed right after this: event 1, content changed/);
    assert.match(await marked.innerText(), /Run the tests/, 'the user message before the hidden update');
  });

  it('a live "running" after a message adds no row; a live pause does', async () => {
    const events = twoTurns();
    await p.showConversation(events, makeHeader({ status: 'finished' }));
    const before = await p.page.locator('article.row').count();
    const next = events.length;
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [
        { seq: next, event: userMessage(eid(20), 'One more thing') },
        { seq: next + 1, event: status(eid(21), 'running') },
      ],
    });
    await p.page.getByText('One more thing').waitFor();
    await p.settle();
    assert.equal(await p.page.locator('article.row').count(), before + 1, 'only the message');
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [{ seq: next + 2, event: status(eid(22), 'paused') }],
    });
    await p.page.getByText('Status: Paused').waitFor();
    assert.equal(await p.page.locator('article.row').count(), before + 2);
  });

  it('waiting for approval adds no line: the waiting card says it, then what was decided', async () => {
    const action = eid(3);
    const events: ViewEvent[] = [
      userMessage(eid(1), 'Run the tests'),
      terminalAction(action, 'npm test', { summary: 'Run the tests', risk: 'MEDIUM' }),
      status(eid(4), 'waiting_for_confirmation'),
    ].map((event, seq) => ({ seq, event }));
    await p.showConversation(
      events,
      makeHeader({ status: 'waiting_for_confirmation', pendingActionIds: [action] }),
    );
    await p.row('ActionEvent').waitFor();
    assert.equal(await p.row('ConversationStateUpdateEvent').count(), 0);
    // Approved: "running" is recorded, and still no status line repeats the card.
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [{ seq: 3, event: status(eid(5), 'running') }],
    });
    await p.page.locator('.feed[data-last-seq="3"]').waitFor();
    assert.equal(await p.row('ConversationStateUpdateEvent').count(), 0);
    assert.equal(await p.page.locator('article.row', { hasText: /Waited for approval/ }).count(), 0);
  });
});
