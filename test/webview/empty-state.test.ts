// The empty state in a short panel with a tall draft: the composer grows, and Start Agent Task must
// stay reachable (scrolled to within the panel) instead of sliding under the composer.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const DEMO_TASKS = ['Add a subtract function to src/math.js', 'Explain @src/math.js'];

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

  it('offers the model picker in an empty chat too (screenshots in every theme)', async () => {
    await p.page.getByRole('button', { name: 'Choose Model…' }).click();
    assert.deepEqual((await p.posted()).at(-1), { type: 'selectModel' });
    for (const theme of ['light', 'dark', 'high-contrast']) {
      const themed = await Panel.open(h, { theme });
      await themed.page.getByRole('button', { name: 'Choose Model…' }).waitFor();
      await themed.page.screenshot({ path: join(SHOTS, `empty-choose-model-${theme}-300.png`) });
      await themed.page.close();
    }
  });

  it("is the demo's from the first paint, before the host has said anything", async () => {
    const first = await Panel.open(h, { demoTasks: DEMO_TASKS });
    try {
      // No message from the host yet: the document alone says the demo model answers.
      for (const task of DEMO_TASKS)
        await first.page.getByRole('button', { name: task }).waitFor({ timeout: 2_000 });
      assert.equal(await first.page.getByRole('button', { name: 'Start Agent Task' }).count(), 0);
      assert.deepEqual(first.errors, []);
    } finally {
      await first.page.close();
    }
  });

  it('while the demo model answers: says so, offers its tasks as buttons and how to connect a model', async () => {
    await p.host({ type: 'conversation', header: null, demoTasks: DEMO_TASKS });
    await p.settle();
    await p.page.getByRole('heading', { name: 'A demo model answers here' }).waitFor();
    const tasks = p.page.getByRole('group', { name: 'Demo tasks' }).getByRole('button');
    assert.deepEqual(await tasks.allInnerTexts(), DEMO_TASKS);
    await tasks.nth(1).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'sendMessage',
      text: 'Explain @src/math.js',
      attachActiveFile: false,
      attachSelection: false,
    });
    // The Plan/Act choice below goes with the task.
    await p.page.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' }).click();
    await tasks.nth(0).click();
    assert.deepEqual((await p.posted()).at(-1), {
      type: 'sendMessage',
      text: 'Add a subtract function to src/math.js',
      attachActiveFile: false,
      attachSelection: false,
      mode: 'plan',
    });
    await p.page.getByRole('button', { name: 'Connect a model…' }).click();
    assert.deepEqual((await p.posted()).at(-1), { type: 'selectModel' });
    // A real model connected: the usual empty state.
    await p.host({ type: 'conversation', header: null });
    await p.settle();
    assert.equal(await p.page.getByText('A demo model answers here').count(), 0);
    await p.page.getByRole('button', { name: 'Start Agent Task' }).waitFor();
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`the demo's empty state in ${theme} at 300 px: screenshot saved, nothing wider than the panel`, async () => {
      const q = await Panel.open(h, { theme });
      try {
        await q.host({ type: 'conversation', header: null, demoTasks: DEMO_TASKS });
        await q.settle();
        await q.page.getByRole('heading', { name: 'A demo model answers here' }).waitFor();
        await q.page.screenshot({ path: join(SHOTS, `empty-demo-${theme}.png`) });
        const wide = await q.page.evaluate(
          '[...document.querySelectorAll(".empty *")].filter((el) => el.getBoundingClientRect().right > 301).length',
        );
        assert.equal(wide, 0);
      } finally {
        await q.page.close();
      }
    });
  }
});
