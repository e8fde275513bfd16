// A conversation found broken: the chat scrolls to the first event that is not as it was signed
// (asking for earlier events when it is not held) and marks its row; the header says Broken.
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import { agentMessage, CONVERSATION_ID, eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';
import { join } from 'node:path';

const ev = (seq: number, text = `message ${seq}`): ViewEvent => ({
  seq,
  event: (seq % 2 ? agentMessage(eid(seq), text) : userMessage(eid(seq), text)) as ViewEvent['event'],
});

describe('webview: a conversation found broken', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 700 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.evaluate('sessionStorage.clear()');
    await p.page.close();
  });

  /** Whether the row of `seq` is inside the feed's visible area. */
  async function inView(seq: number): Promise<boolean> {
    const feed = (await p.page.locator('.feed').boundingBox())!;
    const row = p.page.locator(`article.row[data-seq="${seq}"]`);
    if ((await row.count()) === 0) return false;
    const box = await row.boundingBox();
    return box !== null && box.y < feed.y + feed.height && box.y + box.height > feed.y;
  }

  it('scrolls to the first bad event and marks it; the header badge says Broken', async () => {
    const events = Array.from({ length: 120 }, (_, i) => ev(i));
    await p.showConversation(events);
    await p.settle();
    assert.equal(await inView(119), true, 'at the bottom first');
    assert.equal(await p.page.locator('.row-tampered').count(), 0);
    await p.host({
      type: 'header',
      header: makeHeader({
        signature: 'broken',
        signers: ['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'],
        brokenAt: { seq: 17, id: eid(17), reason: 'content changed' },
      }),
    });
    await p.settle();
    await p.settle();
    assert.equal(await inView(17), true, 'event 17 was scrolled into view');
    const marked = p.page.locator('article.row-tampered');
    assert.equal(await marked.count(), 1);
    assert.equal(await marked.getAttribute('data-seq'), '17');
    assert.match(
      await marked.locator('.tamper-note').innerText(),
      /Not as signed: content changed \(event 17\)/,
    );
    assert.match(await p.page.locator('header .badge.signature').innerText(), /Broken/);
    await p.page.screenshot({ path: join(SHOTS, 'tampered-300.png') });
  });

  it('asks for earlier events until the bad one is held, then reveals it', async () => {
    await p.host({ type: 'conversation', header: makeHeader() });
    await p.host({ type: 'window', conversationId: CONVERSATION_ID, firstSeq: 300 });
    await p.host({
      type: 'events',
      conversationId: CONVERSATION_ID,
      events: Array.from({ length: 50 }, (_, i) => ev(300 + i)),
    });
    await p.settle();
    await p.clearPosted();
    await p.host({
      type: 'header',
      header: makeHeader({ signature: 'broken', brokenAt: { seq: 5, id: eid(5), reason: 'removed' } }),
    });
    await p.settle();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'loadEarlier',
      conversationId: CONVERSATION_ID,
      beforeSeq: 300,
    });
    await p.host({
      type: 'earlier',
      conversationId: CONVERSATION_ID,
      events: Array.from({ length: 300 }, (_, i) => ev(i)),
    });
    await p.settle();
    await p.settle();
    assert.equal(await inView(5), true);
    assert.equal(await p.page.locator('article.row-tampered').getAttribute('data-seq'), '5');
  });
});
