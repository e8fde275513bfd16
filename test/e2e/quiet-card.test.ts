// The default mode with the sandbox running and checkpoints on: the demo's command and edit stay in
// the sandbox and a checkpoint can undo them, so they run without a question, and each card says
// so in one quiet line. Checked at the sidebar's narrow default (300 px) in Light, Dark and High
// Contrast; screenshots go under test-results/.
import * as assert from 'node:assert/strict';
import { startScriptedLlm, type ScriptedLlm } from '../support/llm-server';
import { DEMO_TASK, demoReply } from '../../src/host/node/demo-model/demo-model';
import {
  openWorkbench,
  screenshotRoot,
  type Workbench,
  setSidebarWidth,
  setTheme,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];

describe('e2e: an action that ran without a question says why on its card', function () {
  let wb: Workbench;
  let demo: ScriptedLlm;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    demo = await startScriptedLlm({
      scenario: { name: 'demo', models: ['demo'], turns: [] },
      respond: demoReply,
    });
    wb = await openWorkbench({
      name: 'quiet-card',
      settings: {
        'logbook.model.baseURL': demo.baseUrl,
        'logbook.model.name': 'demo',
        'logbook.confirmation.mode': 'risky',
        'workbench.colorTheme': 'Default Light Modern',
      },
    });
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
    await demo?.close();
  });

  it('runs the demo to the end unasked; the command card names the checkpoint that undoes it, on one line', async () => {
    await wb.startTask(DEMO_TASK);
    const chat = wb.chatFrame();
    await chat
      .getByText(/now exports subtract/)
      .first()
      .waitFor({ timeout: 90_000 });
    assert.equal(await chat.getByRole('button', { name: 'Confirm' }).count(), 0, 'nothing asked');
    const card = chat.locator('.card.action', { hasText: 'npm test' }).first();
    const line = card.locator('.unasked-line');
    await line.waitFor({ timeout: 10_000 });
    assert.match((await line.textContent()) ?? '', /contained; undo with checkpoint [0-9a-f]{7}/);
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      const lines = await line.evaluate((el) => {
        const style = el.ownerDocument.defaultView!.getComputedStyle(el);
        return el.getBoundingClientRect().height / parseFloat(style.lineHeight || style.fontSize);
      });
      assert.ok(lines < 1.8, `the line takes ${lines.toFixed(1)} lines in ${theme}`);
      await card.scrollIntoViewIfNeeded();
      await wb.shot(`unasked-card-${theme.toLowerCase().replace(/\s+/g, '-')}`);
    }
  });
});
