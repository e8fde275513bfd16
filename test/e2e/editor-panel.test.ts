import * as assert from 'node:assert/strict';
import { openWorkbench, EXTENSION_ID, type Workbench } from './support/workbench';

describe('e2e: the chat in an editor tab', function () {
  let wb: Workbench;

  before(async function () {
    wb = await openWorkbench({
      name: 'editor-panel',
      scenario: {
        name: 'e2e-editor-panel',
        turns: [{ reply: { content: 'Answer shown in the editor tab.' } }],
      },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  /** The chat app inside the editor area (not the sidebar view). */
  const editorChat = () =>
    wb.page
      // Webview views carry purpose=webviewView in their URL; editor panels do not.
      .frameLocator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:not([src*="purpose=webviewView"])`)
      .frameLocator('iframe#active-frame');

  it('"Open in Editor" shows the active conversation in a tab, and the tab comes back after a reload', async () => {
    await wb.startTask('Answer in a tab');
    await wb.chatFrame().getByText('Answer shown in the editor tab.').first().waitFor({ timeout: 30_000 });

    await wb.runCommand('Logbook: Open in Editor');
    await wb.page
      .locator('.tabs-container .tab', { hasText: 'Logbook' })
      .first()
      .waitFor({ timeout: 30_000 });
    await editorChat().getByText('Answer shown in the editor tab.').first().waitFor({ timeout: 30_000 });
    await wb.shot('editor-tab');

    // The workbench saves which editors are open a moment after they change; a reload within that
    // moment would lose the tab whatever the extension does.
    await wb.page.waitForTimeout(5_000);
    await wb.page.reload();
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await wb.page
      .locator('.tabs-container .tab', { hasText: 'Logbook' })
      .first()
      .waitFor({ timeout: 60_000 });
    await editorChat().getByText('Answer shown in the editor tab.').first().waitFor({ timeout: 60_000 });
    assert.equal(await wb.page.locator('.tabs-container .tab', { hasText: 'Logbook' }).count(), 1);
    await wb.shot('editor-tab-after-reload');
  });
});
