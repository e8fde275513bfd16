// Mentions end to end in the real workbench: "@mat" in the sidebar's composer is completed by the
// extension from the workspace's files, the pick becomes a chip, a pasted image another one, and the
// model's server receives the file's text and the image; the draft with its chips comes back after the
// view is hidden and after a window reload. Screenshots at 300 px in three themes.
import * as assert from 'node:assert/strict';
import {
  openWorkbench,
  screenshotRoot,
  type Workbench,
  setSidebarWidth,
  setTheme,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

describe('e2e: mentions and images in the composer', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'mentions',
      scenario: {
        name: 'mentions',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: '--- Attached file src/math.js' },
            reply: { content: 'math.js exports add(a, b); the image is a single red pixel.' },
          },
        ],
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

  const box = () => wb.chatFrame().getByRole('textbox', { name: 'Message to the agent' });
  const option = (name: string) => wb.chatFrame().getByRole('option', { name: new RegExp(`^${name}`) });

  it('completes "@mat" from the workspace, in every theme, at 300 px', async () => {
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await box().click();
      await box().fill('');
      await box().pressSequentially('Explain @mat');
      await option('src/math.js').waitFor({ timeout: 15_000 });
      assert.equal(
        await option('src/math.js').getAttribute('aria-selected'),
        'true',
        'the best match comes first',
      );
      await wb.shot(`completion-${theme.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
  });

  it('a picked file and a pasted image reach the model; the message shows both', async () => {
    await box().press('Enter');
    assert.equal(await box().inputValue(), 'Explain @src/math.js ');
    // A paste as the clipboard delivers it (the test's tsconfig has no DOM types: the code is a string).
    await box().evaluate(
      new Function(
        'el',
        `const bytes = Uint8Array.from(atob('${PNG_1PX}'), (c) => c.charCodeAt(0));
         const dt = new DataTransfer();
         dt.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
         el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));`,
      ) as (el: unknown) => void,
    );
    const chips = wb.chatFrame().getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await chips.nth(1).waitFor();
    assert.deepEqual(await chips.allInnerTexts(), ['src/math.js', 'pixel.png']);
    await box().pressSequentially('and this image');
    await wb.shot('chips');
    // The draft is saved within 100 ms of the last key; give the save a moment to reach the
    // workbench before the view goes (a hide in the very instant after typing can still lose it).
    await wb.page.waitForTimeout(500);
    // The draft, chips included, survives the view being hidden (its document is torn down) and
    // the window reloading.
    await wb.page.getByRole('tab', { name: /^Explorer/ }).click();
    await wb.chatFrame().locator('body').waitFor({ state: 'detached', timeout: 15_000 });
    await wb.openLogbookView();
    await chips.nth(1).waitFor({ timeout: 30_000 });
    assert.deepEqual(await chips.allInnerTexts(), ['src/math.js', 'pixel.png']);
    assert.equal(await box().inputValue(), 'Explain @src/math.js and this image');
    await wb.page.reload();
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await wb.openLogbookView();
    await chips.nth(1).waitFor({ timeout: 30_000 });
    assert.deepEqual(await chips.allInnerTexts(), ['src/math.js', 'pixel.png']);
    assert.equal(await box().inputValue(), 'Explain @src/math.js and this image');
    await wb.shot('chips-after-reload');
    await box().press('Enter');
    const chat = wb.chatFrame();
    await chat.getByText(/a single red pixel/).waitFor({ timeout: 30_000 });
    const body = wb.llm!.completionBodies()[0] as { messages: { role: string; content: unknown }[] };
    const user = body.messages.filter((m) => m.role === 'user').at(-1)!.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    assert.equal(user[0]?.text, 'Explain @src/math.js and this image');
    assert.match(
      user[1]?.text ?? '',
      /^--- Attached file src\/math\.js \(\d+ lines\) ---\n```js\nfunction add\(a, b\)/,
    );
    assert.deepEqual(user.at(-1), {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PNG_1PX}` },
    });
    // The message shows the attachment collapsed and the image as a thumbnail the extension served.
    await chat.getByRole('button', { name: /file src\/math\.js/ }).waitFor();
    await chat.locator('img.message-image').waitFor({ timeout: 10_000 });
    assert.equal(
      await chat.locator('img.message-image').getAttribute('src'),
      `data:image/png;base64,${PNG_1PX}`,
    );
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`sent-${theme.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
  });
});
