// The timeline in the real workbench: the agent writes a note, then rewrites it and makes a second
// file; scrubbing back with the keyboard shows the conversation before the second command (running,
// one file changed), its diff and the file as it was then open in editors, and "Live" returns.
// Screenshots at a 300 px sidebar in Light, Dark and High Contrast.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const TASK = 'Write the notes';

describe('e2e: the timeline in the chat', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'timeline',
      settings: { 'logbook.confirmation.mode': 'never' },
      scenario: {
        name: 'e2e-timeline',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'Write the notes' },
            reply: {
              toolCalls: [
                {
                  id: 'call_first',
                  name: 'terminal',
                  arguments: {
                    command: 'echo first > tl-e2e.txt',
                    security_risk: 'LOW',
                    summary: 'First note',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool' },
            reply: {
              toolCalls: [
                {
                  id: 'call_second',
                  name: 'terminal',
                  arguments: {
                    command: 'echo second > tl-e2e.txt && echo made > tl-made.txt',
                    security_risk: 'LOW',
                    summary: 'Second note',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Both notes are written.' } },
        ],
      },
    });
    writeFileSync(join(wb.workspaceDir, 'tl-e2e.txt'), 'empty\n');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  it('the agent runs two commands', async () => {
    await wb.startTask(TASK);
    const chat = wb.chatFrame();
    await chat.getByText('Both notes are written.').first().waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(join(wb.workspaceDir, 'tl-e2e.txt'), 'utf8'), 'second\n');
    await setSidebarWidth(wb, 300);
  });

  it('scrubbing back by keyboard shows the state before the second command', async () => {
    const chat = wb.chatFrame();
    const slider = chat.getByRole('slider', { name: /Timeline/ });
    await slider.focus();
    await wb.page.keyboard.press('End');
    const panel = chat.locator('.timeline-panel');
    await panel.locator('.timeline-state', { hasText: 'Finished' }).waitFor({ timeout: 30_000 });
    await panel.getByText('tl-made.txt').waitFor();
    // Back one event at a time until the second command's file is not there yet.
    let steps = 0;
    for (;;) {
      await wb.page.keyboard.press('ArrowLeft');
      steps++;
      const at = await slider.inputValue();
      await chat.locator(`.timeline-panel[data-seq="${at}"][aria-busy="false"]`).waitFor({ timeout: 30_000 });
      const text = await panel.innerText();
      if (!text.includes('tl-made.txt') && text.includes('tl-e2e.txt')) break;
      assert.ok(steps < 40, `no earlier state without tl-made.txt after ${steps} steps: ${text}`);
    }
    const text = (await panel.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Status Running/);
    assert.match(text, /1 file changed/);
    assert.match((await slider.getAttribute('aria-valuetext')) ?? '', /^event \d+ of \d+/);
    // Later rows are dimmed.
    assert.ok((await chat.locator('.vrow-later').count()) > 0);
    await wb.shot('timeline-scrubbed-back');
  });

  it('opens the diff from the start and the file as it was then, read-only', async () => {
    const chat = wb.chatFrame();
    const panel = chat.locator('.timeline-panel');
    await panel.getByRole('button', { name: /^Diff of tl-e2e\.txt from the start/ }).click();
    const diff = wb.page.locator('.monaco-diff-editor');
    await diff.locator('.modified .view-lines', { hasText: 'first' }).waitFor({ timeout: 30_000 });
    await diff.locator('.original .view-lines', { hasText: 'empty' }).waitFor();
    await wb.shot('timeline-diff');
    await panel.getByRole('button', { name: 'Open files at this point' }).click();
    const tab = wb.page.locator('.tab', { hasText: 'tl-e2e.txt' }).last();
    await tab.waitFor({ timeout: 30_000 });
    await wb.page
      .locator('.monaco-editor .view-lines', { hasText: /^first$/ })
      .first()
      .waitFor();
    await wb.shot('timeline-open-files');
  });

  it('reads right at 300 px in Light, Dark and High Contrast', async () => {
    const chat = wb.chatFrame();
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast']) {
      await setTheme(wb, theme);
      await chat.getByRole('slider', { name: /Timeline/ }).focus();
      await chat.locator('.timeline-panel').waitFor();
      const overflow = await chat
        .locator('.timeline-bar, .timeline-panel, .timeline-file')
        .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className));
      assert.deepEqual(overflow, [], theme);
      await wb.shot(`timeline-300px-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });

  it('"Live" returns to the conversation as it is', async () => {
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Live' }).click();
    await chat.locator('.timeline-panel').waitFor({ state: 'detached' });
    assert.equal(await chat.locator('.vrow-later').count(), 0);
    assert.match(
      (await chat.getByRole('slider', { name: /Timeline/ }).getAttribute('aria-valuetext')) ?? '',
      /^Live, /,
    );
  });
});
