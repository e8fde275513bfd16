// The empty state in a short panel with a tall draft: the composer grows, and Start Agent Task must
// stay reachable (scrolled to within the panel) instead of sliding under the composer.
import assert from 'node:assert/strict';
import { type Harness, Panel, startHarness } from './support';

describe('webview: the empty state beside a tall draft', function () {
  this.timeout(60_000);
  let h: Harness;
  let p: Panel;
  before(async () => (h = await startHarness({ width: 300, height: 420 })));
  after(async () => h?.close());
  beforeEach(async () => (p = await Panel.open(h)));
  afterEach(async () => {
    assert.deepEqual(p.errors, [], 'no uncaught page errors');
    await p.page.close();
  });

  it('keeps Start Agent Task reachable and clickable', async () => {
    const box = p.page.getByRole('textbox').first();
    await box.fill(Array.from({ length: 30 }, (_, i) => `line ${i + 1} of a long draft`).join('\n'));
    await p.settle();
    const button = p.page.getByRole('button', { name: 'Start Agent Task' });
    // Playwright clicks only what would receive the click: covered by the composer, this times out.
    await button.click({ timeout: 3_000 });
    assert.deepEqual((await p.posted()).at(-1), { type: 'startTask' });
    const composerTop = await p.page
      .locator('.composer')
      .first()
      .evaluate((el) => el.getBoundingClientRect().top);
    const buttonBottom = await button.evaluate((el) => el.getBoundingClientRect().bottom);
    assert.ok(
      buttonBottom <= composerTop + 1,
      `the button (bottom ${buttonBottom}) is above the composer (top ${composerTop})`,
    );
  });
});
