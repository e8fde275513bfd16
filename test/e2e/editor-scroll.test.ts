// A conversation longer than the view opens on its newest event: in the editor tab of "Open in
// Editor", in that tab after it was hidden and shown again (it resyncs from scratch), and in the
// sidebar after the sidebar was hidden and shown again. Screenshots in Light and Dark go under
// test-results/.
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { EXTENSION_ID, openWorkbench, screenshotRoot, type Workbench, setTheme } from './support/workbench';

const STEPS = 12;
const LAST_TEXT = 'All twelve steps are done; this is the newest event.';

interface FeedState {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
  /** The last event row (not the "earlier events" line or the live stream) lies inside the feed. */
  lastRowInView: boolean;
  lastRowText: string;
}

async function feedState(frame: FrameLocator): Promise<FeedState> {
  return frame.locator('.feed').evaluate((feed) => {
    const rows = [...feed.querySelectorAll('.vrow')];
    const last = rows.at(-1);
    const outer = feed.getBoundingClientRect();
    const inner = last?.getBoundingClientRect();
    return {
      scrollTop: feed.scrollTop,
      clientHeight: feed.clientHeight,
      scrollHeight: feed.scrollHeight,
      lastRowInView:
        inner !== undefined &&
        inner.top >= outer.top - 1 &&
        inner.bottom <= outer.bottom + 1 &&
        inner.height > 0,
      lastRowText: last?.textContent ?? '',
    };
  });
}

/** The feed overflows, sits at its end and shows the newest event, within a few seconds. */
async function assertAtNewest(frame: FrameLocator, where: string): Promise<FeedState> {
  await frame.getByText(LAST_TEXT).first().waitFor({ state: 'attached', timeout: 30_000 });
  let state = await feedState(frame);
  // Rows are measured as they render: give the feed a moment to settle, then it must be at the end.
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    state = await feedState(frame);
  }
  const where_ = `${where}: ${JSON.stringify(state)}`;
  assert.ok(state.scrollHeight > state.clientHeight + 200, `the conversation does not overflow ${where_}`);
  assert.ok(
    Math.abs(state.scrollTop + state.clientHeight - state.scrollHeight) <= 2,
    `the feed is not scrolled to the newest event ${where_}`,
  );
  assert.ok(state.lastRowInView, `the last row is not in view ${where_}`);
  assert.ok(state.lastRowText.includes(LAST_TEXT), `the last row is not the newest event ${where_}`);
  return state;
}

describe('e2e: a long conversation opens on its newest event', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'editor-scroll',
      settings: { 'workbench.colorTheme': 'Default Light Modern' },
      scenario: {
        name: 'e2e-editor-scroll',
        turns: [
          ...Array.from({ length: STEPS }, (_, i) => ({
            reply: {
              content: `Step ${i + 1} of ${STEPS}: looking at the next part of the task.`,
              toolCalls: [
                {
                  name: 'think',
                  arguments: { thought: `Thought ${i + 1}: weigh the options for this step.` },
                },
              ],
            },
          })),
          { reply: { content: LAST_TEXT } },
        ],
      },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  const sidebarChat = () =>
    wb.page
      .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"][src*="purpose=webviewView"]`)
      .frameLocator('iframe#active-frame');
  const editorChat = () =>
    wb.page
      .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:not([src*="purpose=webviewView"])`)
      .frameLocator('iframe#active-frame');
  const logbookTab = () => wb.page.locator('.tabs-container .tab', { hasText: 'Logbook' }).first();

  it('the sidebar follows the run to its newest event', async () => {
    await wb.startTask('Work through twelve steps');
    await sidebarChat().getByText(LAST_TEXT).first().waitFor({ timeout: 60_000 });
    await assertAtNewest(sidebarChat(), 'in the sidebar');
  });

  it('"Open in Editor" shows the newest event at the bottom of the tab', async () => {
    await wb.runCommand('Logbook: Open in Editor');
    await logbookTab().waitFor({ timeout: 30_000 });
    await assertAtNewest(editorChat(), 'in the editor tab');
    await wb.shot('editor-tab-light');
  });

  it('the tab hidden behind another editor and shown again is at its newest event', async () => {
    await wb.runCommand('File: New Untitled Text File');
    await wb.page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).first().waitFor();
    await wb.page.waitForTimeout(500);
    await logbookTab().click();
    await assertAtNewest(editorChat(), 'in the editor tab shown again');
  });

  it('a reader who scrolled up stays where they are while the tab resizes', async () => {
    const feed = editorChat().locator('.feed');
    await feed.hover();
    await wb.page.mouse.wheel(0, -400);
    await wb.page.waitForTimeout(500);
    const before = await feedState(editorChat());
    assert.ok(before.scrollTop + before.clientHeight < before.scrollHeight - 100, 'the wheel scrolled up');
    await wb.runCommand('View: Toggle Panel Visibility');
    await wb.page.waitForTimeout(1_000);
    const after = await feedState(editorChat());
    assert.ok(
      after.scrollTop + after.clientHeight < after.scrollHeight - 100,
      `the feed jumped to the end after the reader scrolled up: ${JSON.stringify({ before, after })}`,
    );
    await wb.runCommand('View: Toggle Panel Visibility');
    // "Jump to latest" brings it back.
    await editorChat().getByRole('button', { name: 'Jump to the latest event' }).click();
    await assertAtNewest(editorChat(), 'after "Jump to latest"');
  });

  it('the tab in Dark (screenshot)', async () => {
    await setTheme(wb, 'Dark Modern');
    await assertAtNewest(editorChat(), 'in the editor tab, Dark');
    await wb.shot('editor-tab-dark');
    await setTheme(wb, 'Light Modern');
  });

  it('the sidebar hidden and shown again is at its newest event', async () => {
    // The sidebar's webview comes back without purpose=webviewView in its address: close the tab
    // so that the sidebar's is the only chat left to find.
    await logbookTab().locator('.codicon-close').click();
    await logbookTab().waitFor({ state: 'detached' });
    await wb.runCommand('View: Toggle Primary Side Bar Visibility');
    await wb.page.locator('.part.sidebar').waitFor({ state: 'hidden' });
    await wb.page.waitForTimeout(500);
    await wb.runCommand('View: Toggle Primary Side Bar Visibility');
    await wb.page.locator('.part.sidebar').waitFor({ state: 'visible' });
    await assertAtNewest(wb.chatFrame(), 'in the sidebar shown again');
    await wb.shot('sidebar-shown-again');
  });
});
