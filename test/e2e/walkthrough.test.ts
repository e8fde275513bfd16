// The Get Started walkthrough and the Diagnostics view in the real workbench, at a 300 px sidebar:
// Logbook: Get Started opens the walkthrough; every step shows its picture and a button; the last
// step's button opens Show Diagnostics in the Logbook sidebar, which reports the scripted model as
// reachable. Both are captured in Light, Dark and High Contrast.
import * as assert from 'node:assert/strict';
import {
  EXTENSION_ID,
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const STEPS: [title: string, button: string][] = [
  ['Connect a model', 'Select Model'],
  ['Run a first task with the demo model', 'Try the Demo Model'],
  ['Approve or reject', 'Start a Task'],
  ['Restore files', 'Review Changes'],
  ['Plan, then act', 'Set the Default Mode'],
  ['Add an MCP server', 'Add MCP Server'],
  ['When something does not work', 'Show Diagnostics'],
];

describe('e2e: the Get Started walkthrough and the Diagnostics view', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({ name: 'walkthrough', scenario: { name: 'e2e-walkthrough', turns: [] } });
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
  });
  after(async () => wb?.close());
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  it('Logbook: Get Started opens the walkthrough; each step has its picture and a button', async () => {
    const page = wb.page;
    // VS Code reads an extension's walkthroughs some seconds after the window starts, and shows
    // another one when asked before: ask again until it has ours.
    const ours = page.locator('.tab', { hasText: 'Walkthrough: Logbook' });
    for (let attempt = 0; attempt < 15 && !(await ours.isVisible()); attempt++) {
      if (attempt) await wb.runCommand('View: Close All Editors');
      await wb.runCommand('Logbook: Get Started');
      await ours.waitFor({ timeout: 2_000 }).catch(() => undefined);
    }
    await ours.waitFor({ timeout: 5_000 });
    const editor = page.locator('.gettingStartedContainer');
    await editor.getByText('Get Started with Logbook').first().waitFor({ timeout: 30_000 });
    for (const [title, button] of STEPS) {
      const step = editor.locator('.getting-started-step', { hasText: title });
      await step.locator('.step-title').first().click();
      await step.getByRole('button', { name: button }).waitFor({ timeout: 10_000 });
      const image = editor.locator('.getting-started-media img');
      await image.waitFor();
      // A picture that did not load has no natural width.
      await page.waitForFunction(
        (img) => img !== null && (img as unknown as { naturalWidth: number }).naturalWidth > 0,
        await image.elementHandle(),
        { timeout: 10_000 },
      );
    }
    // Theme screenshots are taken by scripts/walkthrough-media.ts: switching the theme from the
    // palette while the step list holds the focus closes the palette at once in this workbench.
    await wb.shot('walkthrough');
  });

  it("the last step's button opens Show Diagnostics in the sidebar, with the model reachable", async () => {
    const page = wb.page;
    const editor = page.locator('.gettingStartedContainer');
    const step = editor.locator('.getting-started-step', { hasText: 'When something does not work' });
    await step.locator('.step-title').first().click();
    await step.getByRole('button', { name: 'Show Diagnostics' }).click();
    const view = page
      .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`)
      .nth(1)
      .frameLocator('iframe#active-frame');
    await view.getByRole('heading', { name: /Storage/ }).waitFor({ timeout: 60_000 });
    const model = view.locator('section', { has: view.getByRole('heading', { name: /Model/ }) });
    const text = await model.innerText();
    assert.match(text, /reachable \(HTTP 200\)/);
    assert.match(text, /scripted-model: offered by the endpoint/);
    assert.ok(await view.getByRole('button', { name: 'Clean Up Old Checkpoints…' }).isDisabled());
    await page.locator('.pane-header', { has: page.locator('h3.title', { hasText: /^Chat$/i }) }).click();
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await page.waitForTimeout(500);
      await wb.shot(`diagnostics-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });
});
