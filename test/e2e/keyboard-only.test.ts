// A whole task from the keyboard alone, in the real workbench: the palette starts it, the chat
// view is focused by its command, Tab walks to the approval's Confirm button, Enter approves the
// proposed edit. At each Tab stop in the chat the focused element must show a visible focus ring,
// and every step is captured.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

const EDIT = {
  id: 'call_edit',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'src/math.js',
    old_str: 'module.exports = { add };',
    new_str: 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
    security_risk: 'MEDIUM',
    summary: 'Add subtract() to src/math.js',
  },
};

/** Types into the palette and runs the one entry of exactly that name with Enter. */
async function paletteCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await page.keyboard.type(title);
  // Enter runs the focused row: wait until the list shows that entry first.
  const first = page.locator('.quick-input-widget .monaco-list-row').first();
  await first.filter({ hasText: title }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

interface FocusState {
  tag: string;
  name: string;
  visible: boolean;
}

describe('e2e: a whole task from the keyboard', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'keyboard-only',
      // Ask for everything: in the default mode a checkpoint holds the edit, so it would run without
      // the question this test answers from the keyboard.
      settings: { 'logbook.confirmation.mode': 'always' },
      scenario: {
        name: 'e2e-keyboard-only',
        turns: [
          { match: { lastRole: 'user', lastContentIncludes: 'subtract' }, reply: { toolCalls: [EDIT] } },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'subtract' },
            reply: {
              toolCalls: [{ id: 'call_done', name: 'finish', arguments: { message: 'Added subtract().' } }],
            },
          },
        ],
      },
    });
  });
  after(async () => wb?.close());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  it('starts the task, reaches Confirm with Tab, approves with Enter; focus is visible at every stop', async () => {
    const page = wb.page;
    await paletteCommand(page, 'Logbook: Start Agent Task');
    await page.locator('.quick-input-widget', { hasText: 'What should the agent do?' }).waitFor();
    await page.keyboard.type('Add a subtract function to src/math.js');
    await wb.shot('task-typed');
    await page.keyboard.press('Enter');

    const chat = wb.chatFrame();
    const bar = chat.locator('section.approval', { hasText: 'Add subtract() to src/math.js' });
    await bar.waitFor({ timeout: 60_000 });
    await wb.shot('approval-waiting');

    // Into the chat by its command, then Tab until Confirm has the focus.
    await paletteCommand(page, 'Logbook: Focus on Chat View');
    const confirm = bar.getByRole('button', { name: 'Confirm' });
    const stops: FocusState[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const state = await chat.locator(':root').evaluate((root): FocusState => {
        const doc = root.ownerDocument;
        const el = doc.activeElement;
        if (!el || el === doc.body) return { tag: 'body', name: '', visible: true };
        const css = doc.defaultView!.getComputedStyle(el);
        const ring =
          (css.outlineStyle !== 'none' && parseFloat(css.outlineWidth) > 0) ||
          (css.boxShadow !== 'none' && css.boxShadow !== '');
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        return { tag: el.tagName.toLowerCase(), name, visible: ring && el.matches(':focus-visible') };
      });
      stops.push(state);
      await wb.shot(`tab-${String(i + 1).padStart(2, '0')}-${state.tag}`);
      if (await confirm.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false)) break;
    }
    assert.deepEqual(
      stops.filter((s) => s.tag === 'body'),
      [],
      'every Tab stop is inside the chat',
    );
    const invisible = stops.filter((s) => !s.visible);
    assert.deepEqual(invisible, [], `focus without a visible ring: ${JSON.stringify(invisible)}`);
    assert.ok(
      await confirm.evaluate((el) => el === el.ownerDocument.activeElement),
      `Tab never reached Confirm: ${JSON.stringify(stops)}`,
    );

    await page.keyboard.press('Enter');
    await bar.waitFor({ state: 'hidden', timeout: 30_000 });
    await chat.getByText('Added subtract().').first().waitFor({ timeout: 60_000 });
    assert.match(readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'), /function subtract/);
    await wb.shot('approved-and-finished');
  });
});
