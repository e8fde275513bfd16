// 10,000 events: painted with a bounded DOM wherever the user scrolls, and the rows at both ends
// right. The paint and scroll times are logged here; their targets are checked by `npm run
// bench:webview`, not by a timed test.
import assert from 'node:assert/strict';
import { longConversation, makeHeader } from './harness/events';
import { measurePaint, measureScroll } from './harness/measure';
import { type Harness, Panel, startHarness } from './support';

const COUNT = 10_000;
const MAX_ROWS = 200;

describe('webview: 10,000 events', function () {
  this.timeout(120_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 420, height: 900 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, []);
    await p.page.close();
  });

  it(`paints the newest events and keeps fewer than ${MAX_ROWS} rows in the DOM`, async () => {
    const events = longConversation(COUNT);
    const { paintMs, rowsInDom } = await measurePaint(p.page, makeHeader(), events);
    console.log(
      `      10k events: first paint ${paintMs.toFixed(0)} ms after the first message, ${rowsInDom} rows in the DOM`,
    );
    assert.ok(rowsInDom > 0 && rowsInDom < MAX_ROWS);
    // It opened at the bottom: the newest events are on screen.
    assert.equal(
      (await p.page.locator(`[data-seq="${COUNT - 1}"], [data-seq="${COUNT - 2}"]`).count()) > 0,
      true,
    );

    const feed = p.page.locator('.feed');
    for (const where of [0, 0.5, 0.25, 1]) {
      await feed.evaluate((el, f) => (el.scrollTop = (el.scrollHeight - el.clientHeight) * f), where);
      await p.settle();
      await p.settle();
      const rows = await p.page.locator('article.row').count();
      assert.ok(rows > 0 && rows < MAX_ROWS, `${rows} rows at ${where}`);
    }
    await feed.evaluate((el) => (el.scrollTop = 0));
    await p.settle();
    await p.settle();
    assert.equal(
      await p.page.locator('article.row').first().getAttribute('data-seq'),
      '0',
      'the first event at the top',
    );
    assert.match(await p.page.locator('article.row').first().innerText(), /Step 0: please check the build/);

    const scroll = await measureScroll(p.page, '.feed', 'article.row', 150, 120);
    console.log(
      `      scrolling: mean frame ${scroll.meanMs.toFixed(1)} ms, p95 ${scroll.p95Ms.toFixed(1)} ms, ${scroll.jankFrames}/${scroll.frames} long frames, max ${scroll.rowsMax} rows`,
    );
    assert.ok(scroll.rowsMax < MAX_ROWS);
  });

  it('appending to a 10k conversation posts only the delta and keeps following the bottom', async () => {
    const events = longConversation(COUNT);
    await measurePaint(p.page, makeHeader(), events);
    const more = longConversation(COUNT + 7).slice(COUNT);
    await p.host({ type: 'events', conversationId: makeHeader().id, events: more });
    await p.settle();
    await p.settle();
    assert.equal(await p.page.locator('.feed').getAttribute('data-last-seq'), String(COUNT + 6));
    const atEnd = await p.page
      .locator('.feed')
      .evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 40);
    assert.ok(atEnd, 'still at the bottom');
  });
});
