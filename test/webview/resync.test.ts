// The view holds only what the host sent, survives a reload from its saved state, asks for exactly
// the events after its last seq, and drops anything malformed the host (or anyone) posts.
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import { agentMessage, CONVERSATION_ID, eid, makeHeader, userMessage } from './harness/events';
import { type Harness, type Harnessed, Panel, startHarness } from './support';

const ev = (seq: number, text = `message ${seq}`): ViewEvent => ({
  seq,
  event: (seq % 2 ? agentMessage(eid(seq), text) : userMessage(eid(seq), text)) as ViewEvent['event'],
});

describe('webview: sync and resync', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 420, height: 2_000 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.evaluate('sessionStorage.clear()');
    await p.page.close();
  });

  const messages = () => p.page.locator('.event.message .body').allInnerTexts();

  it('after a reload it restores its events and asks only for those after its last seq', async () => {
    await p.showConversation([ev(0), ev(1), ev(2)]);
    await p.waitForState((s) => s?.lastSeq === 2);
    await p.page.reload();
    await p.waitForReady();
    assert.deepEqual((await p.posted())[0], { type: 'ready', conversationId: CONVERSATION_ID, lastSeq: 2 });
    await p.settle();
    assert.deepEqual(
      await messages(),
      ['message 0', 'message 1', 'message 2'],
      'shown before the host answers',
    );
    assert.equal(await p.page.locator('header .title').innerText(), makeHeader().title);
    // The host answers with the header and the events after seq 2 (one repeated, which is ignored).
    await p.host({ type: 'conversation', header: makeHeader() });
    await p.host({ type: 'events', conversationId: CONVERSATION_ID, events: [ev(2, 'dup'), ev(3), ev(4)] });
    await p.settle();
    assert.deepEqual(await messages(), ['message 0', 'message 1', 'message 2', 'message 3', 'message 4']);
  });

  it('keeps the composer draft across a reload', async () => {
    await p.showConversation([ev(0)]);
    await p.page.getByRole('textbox', { name: 'Message to the agent' }).fill('half-written thought');
    await p.waitForState((s) => s?.draft === 'half-written thought');
    await p.page.reload();
    assert.equal(
      await p.page.getByRole('textbox', { name: 'Message to the agent' }).inputValue(),
      'half-written thought',
    );
  });

  it('a different conversation replaces the rows; the empty state clears them', async () => {
    await p.showConversation([ev(0), ev(1)]);
    const other = makeHeader({ id: 'another-conversation', title: 'Other' });
    await p.showConversation([ev(0, 'other 0')], other);
    assert.deepEqual(await messages(), ['other 0']);
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [ev(5, 'late event of the old one')],
    });
    await p.settle();
    assert.deepEqual(await messages(), ['other 0'], 'events for a conversation not shown are ignored');
    await p.host({ type: 'conversation', header: null });
    await p.settle();
    assert.equal(await p.page.getByRole('button', { name: 'Start Agent Task' }).count(), 1);
  });

  it('appends events in seq order only: duplicates and older ones are ignored', async () => {
    await p.showConversation([ev(0), ev(1)]);
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: [ev(1, 'again'), ev(0, 'older'), ev(2)],
    });
    await p.settle();
    assert.deepEqual(await messages(), ['message 0', 'message 1', 'message 2']);
  });

  it('drops hostile or malformed host messages with a log line and keeps working', async () => {
    await p.showConversation([ev(0)]);
    const hostile: unknown[] = [
      'just a string',
      null,
      { type: 'eval', code: 'window.__xss = 1' },
      {
        type: 'events',
        conversationId: CONVERSATION_ID,
        events: [{ seq: 'one', event: { kind: 'MessageEvent', id: 'x' } }],
      },
      {
        type: 'events',
        conversationId: CONVERSATION_ID,
        events: [{ seq: 1, event: { kind: 'K'.repeat(10_000), id: 'x' } }],
      },
      {
        type: 'events',
        conversationId: CONVERSATION_ID,
        events: [{ seq: 1, event: { kind: 'MessageEvent' } }],
      },
      { type: 'header', header: { ...makeHeader(), cost: 'free' } },
      {
        type: 'header',
        header: { ...makeHeader(), title: '<img src=x onerror=window.__xss=1>'.repeat(1_000) },
      },
      { type: 'conversation', header: makeHeader(), extra: true },
      { type: 'stream', conversationId: CONVERSATION_ID, delta: { type: 'html', html: '<b>x</b>' } },
    ];
    for (const m of hostile) await p.host(m);
    await p.settle();
    const warnings = p.console.filter((l) => l.includes('dropped an invalid message'));
    assert.equal(warnings.length, hostile.length);
    assert.ok(
      warnings.every((w) => w.length < 1_000),
      'log lines stay short',
    );
    assert.deepEqual(await messages(), ['message 0']);
    assert.equal(await p.page.evaluate(() => (globalThis as unknown as Harnessed).__xss), undefined);
    await p.host({ type: 'events', conversationId: CONVERSATION_ID, events: [ev(1)] });
    await p.settle();
    assert.deepEqual(await messages(), ['message 0', 'message 1']);
  });

  it('a conversation too large to cache is resynced from the start instead', async () => {
    const huge = 'x'.repeat(4_500_000);
    await p.showConversation([ev(0), ev(1, huge)]);
    const s = await p.waitForState((state) => state !== null);
    assert.equal(s?.conversationId, CONVERSATION_ID);
    assert.equal(s?.lastSeq, -1);
  });

  it('a long conversation shows its newest events and loads earlier ones a page at a time', async () => {
    const feed = p.page.locator('.feed');
    await p.host({ type: 'conversation', header: makeHeader() });
    await p.host({ type: 'window', conversationId: CONVERSATION_ID, firstSeq: 400 });
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: Array.from({ length: 100 }, (_, i) => ev(400 + i)),
    });
    await p.settle();
    assert.equal(await feed.getAttribute('data-last-seq'), '499');
    await feed.evaluate((el) => (el.scrollTop = 0));
    await p.settle();
    const more = p.page.getByRole('button', { name: /Show earlier events \(400 not shown\)/ });
    await more.click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'loadEarlier',
      conversationId: CONVERSATION_ID,
      beforeSeq: 400,
    });

    // A page that does not end where the view starts is refused; the right one goes above.
    await p.host({ type: 'earlier', conversationId: CONVERSATION_ID, events: [ev(10), ev(11)] });
    await p.host({
      type: 'earlier',
      conversationId: CONVERSATION_ID,
      events: Array.from({ length: 390 }, (_, i) => ev(10 + i)),
    });
    await p.settle();
    await p.settle();
    // The row that was first (message 400) is still at the top of the view.
    const feedTop = (await feed.boundingBox())!.y;
    const rendered = p.page.locator('article.row');
    let top: string | null = null;
    for (let i = 0; i < (await rendered.count()) && top === null; i++) {
      const box = await rendered.nth(i).boundingBox();
      if (box && box.y + box.height > feedTop + 1) top = await rendered.nth(i).getAttribute('data-seq');
    }
    assert.equal(top, '400');
    await feed.evaluate((el) => (el.scrollTop = 0));
    await p.settle();
    await p.page.getByRole('button', { name: /Show earlier events \(10 not shown\)/ }).waitFor();

    // The saved state keeps the whole run from seq 10; a reload shows it and asks for what follows.
    await p.waitForState((s) => s?.events[0]?.seq === 10 && s.lastSeq === 499);
    await p.page.reload();
    await p.waitForReady();
    assert.deepEqual((await p.posted())[0], { type: 'ready', conversationId: CONVERSATION_ID, lastSeq: 499 });
    await p.settle();
    assert.equal((await messages()).at(-1), 'message 499', 'restored, at the bottom');
    await feed.evaluate((el) => (el.scrollTop = 0));
    await p.settle();
    await p.page.getByRole('button', { name: /Show earlier events \(10 not shown\)/ }).waitFor();

    // The last page: no more button, and all 500 events are there in order.
    await p.host({ type: 'conversation', header: makeHeader() });
    await p.host({
      type: 'earlier',
      conversationId: CONVERSATION_ID,
      events: Array.from({ length: 10 }, (_, i) => ev(i)),
    });
    await p.settle();
    assert.equal(await p.page.getByRole('button', { name: /Show earlier events/ }).count(), 0);
    // Rows are virtualized: what the app saved is every event it holds.
    const saved = await p.waitForState((s) => s?.events.length === 500);
    assert.deepEqual(
      saved?.events.map((e) => e.seq),
      Array.from({ length: 500 }, (_, i) => i),
    );

    // A new window (the host found the view too far behind) drops everything held.
    await p.host({ type: 'window', conversationId: CONVERSATION_ID, firstSeq: 600 });
    await p.host({ type: 'events', conversationId: CONVERSATION_ID, events: [ev(600), ev(601)] });
    await p.settle();
    assert.deepEqual(await messages(), ['message 600', 'message 601']);
  });
});
