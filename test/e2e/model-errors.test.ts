// An unreachable model endpoint in the real workbench: the chat says it is retrying within 3 s
// (not just "Running"), then shows an error card naming the endpoint with Retry and Open Settings,
// which open the endpoint's setting and try again. Screenshots in Light, Dark and High Contrast at a
// 300 px sidebar.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { contrastViolations } from './support/contrast';
import {
  openWorkbench,
  screenshotRoot,
  type Workbench,
  setSidebarWidth,
  setTheme,
} from './support/workbench';

const SIDEBAR_WIDTH = 300;
const THEMES = [
  { name: 'Default Light Modern', picker: 'Light Modern', slug: 'light', bodyClass: 'vs' },
  { name: 'Default Dark Modern', picker: 'Dark Modern', slug: 'dark', bodyClass: 'vs-dark' },
  {
    name: 'Default High Contrast',
    picker: 'Dark High Contrast',
    slug: 'high-contrast',
    bodyClass: 'hc-black',
  },
];

/** A port on 127.0.0.1 that nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('e2e: an unreachable model endpoint', function () {
  let wb: Workbench;
  let port: number;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    port = await closedPort();
    wb = await openWorkbench({
      name: 'model-errors',
      settings: {
        'logbook.model.baseURL': `http://127.0.0.1:${port}/v1`,
        // What `npm start` leaves behind: the demo's model name with a real endpoint.
        'logbook.model.name': 'demo',
        'workbench.colorTheme': THEMES[0]!.name,
      },
    });
    await wb.openLogbookView();
    await setSidebarWidth(wb, SIDEBAR_WIDTH);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  const card = () => wb.chatFrame().getByRole('group', { name: `Could not reach 127.0.0.1:${port}` });

  it('shows a retry notice within 3 s, then an error card with Retry and Open Settings', async () => {
    const chat = wb.chatFrame();
    await wb.startTask('Say hello');
    const asked = Date.now();
    await chat
      .getByText(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}, retrying in \\d+ s \\(2 of 5\\)$`))
      .first()
      .waitFor({ timeout: 3_000 });
    assert.ok(Date.now() - asked < 3_000, `the notice took ${Date.now() - asked} ms`);
    await wb.shot('retrying-light');
    await card().waitFor({ timeout: 60_000 });
    await chat.getByText(/retrying in \d+ s \(5 of 5\)/).waitFor();
    const text = await card().innerText();
    assert.match(text, new RegExp(`Could not reach http://127\\.0\\.0\\.1:${port}/v1`));
    assert.match(text, /Gave up after 5 attempts/);
    assert.match(text, /logbook\.model\.baseURL/);
    assert.doesNotMatch(text, /demo/, 'the model left over from the demo is not named');
    await card().getByRole('button', { name: 'Retry' }).waitFor();
    await card().getByRole('button', { name: 'Open Settings' }).waitFor();
    const sidebar = await wb.page.locator('.part.sidebar').boundingBox();
    assert.ok(sidebar && Math.abs(sidebar.width - SIDEBAR_WIDTH) <= 2, `sidebar ${sidebar?.width} px`);
    await wb.shot('error-card-light');
  });

  it('the error card reads in Dark and High Contrast: no text under contrast (screenshots)', async () => {
    for (const theme of THEMES.slice(1)) {
      await setTheme(wb, theme.picker);
      await wb.page.locator(`.monaco-workbench.${theme.bodyClass}`).waitFor({ timeout: 15_000 });
      await wb.page.waitForTimeout(500); // the webview repaints with the new theme's variables
      await wb.shot(`error-card-${theme.slug}`);
      assert.deepEqual(await contrastViolations(wb.chatFrame()), [], theme.slug);
    }
    await setTheme(wb, THEMES[0]!.picker);
  });

  it('Open Settings shows the endpoint setting; Retry tries the endpoint again', async () => {
    await card().getByRole('button', { name: 'Open Settings' }).click();
    const item = wb.page.locator('.settings-editor .setting-item-contents', {
      has: wb.page.locator('.setting-item-label', { hasText: /^Base URL$/ }),
    });
    await item.first().waitFor({ timeout: 15_000 });
    assert.equal(await item.first().locator('input').inputValue(), `http://127.0.0.1:${port}/v1`);
    await wb.shot('open-settings');
    await wb.runCommand('View: Close Editor');
    const chat = wb.chatFrame();
    const firstRetries = chat.getByText(/retrying in \d+ s \(2 of 5\)/);
    assert.equal(await firstRetries.count(), 1);
    await card().getByRole('button', { name: 'Retry' }).click();
    await chat
      .getByText(/retrying in \d+ s \(2 of 5\)/)
      .nth(1)
      .waitFor({ timeout: 5_000 });
    assert.equal(await card().first().getByRole('button').count(), 0, 'a running retry has no buttons');
  });
});
