// The model button in the chat header opens one list of the endpoint's model and the editor's own
// (here a chat model of a test extension); picking the editor model switches the next step to it.
import * as assert from 'node:assert/strict';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];

describe('e2e: choosing the model from the chat header', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'model-picker',
      editorModels: true,
      scenario: {
        name: 'e2e-model-picker',
        turns: [],
        fallback: { content: 'Hello from the endpoint model.' },
      },
      settings: { 'workbench.colorTheme': 'Default Light Modern' },
    });
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => wb?.close());

  it('lists both kinds, switches to the editor model, and the agent runs on it', async () => {
    await wb.startTask('Say hello');
    const chat = wb.chatFrame();
    await chat.getByText('Hello from the endpoint model.').waitFor({ timeout: 30_000 });
    const button = chat.getByRole('button', { name: /^Model: scripted-model\./ });
    await button.waitFor();
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`header-model-${theme.toLowerCase().replace(/\W+/g, '-')}`);
    }
    await setTheme(wb, THEMES[0]!);

    await button.click();
    const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: 'Scripted Editor Model' }).first().waitFor({ timeout: 15_000 });
    const labels = await rows.allInnerTexts();
    assert.ok(
      labels.some((l) => /scripted-model/.test(l)),
      labels.join(' | '),
    );
    await wb.shot('model-list');
    await rows.filter({ hasText: 'Scripted Editor Model' }).first().click();

    await chat.getByRole('button', { name: /^Model: scripted-editor-model\./ }).waitFor({ timeout: 10_000 });
    // The next step goes to the editor model: it calls the terminal and reports what it printed.
    const composer = chat.locator('.composer textarea');
    await composer.fill('Print the marker');
    await composer.press('Enter');
    await chat.getByText(/The terminal said: from-the-editor-model/).waitFor({ timeout: 60_000 });
    await wb.shot('editor-model-answered');
  });
});
