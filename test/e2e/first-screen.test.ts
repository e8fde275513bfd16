// The first minute after `npm start`, as a new user meets it: the short URL opens the sample
// workspace on Logbook's chat (not the Explorer), under a recognisable icon (no walkthrough over it),
// where the empty chat says a demo model answers and offers its tasks; the model picker offers to connect a real model;
// and the Settings editor groups Logbook's settings in ordered categories where "key" finds how to
// set one and the labels read "Model: Base URL". Screenshots in Light, Dark and High Contrast at a
// 300 px sidebar.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const slug = (theme: string) => theme.toLowerCase().replace(/\W+/g, '-');

describe('e2e: the first screen after npm start', function () {
  const runDir = join(mkdtempSync(join(tmpdir(), 'logbook-first-')), 'start');
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({ name: 'first-screen', sampleRunDir: runDir });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });
  after(async () => {
    await wb?.close();
    rmSync(join(runDir, '..'), { recursive: true, force: true });
  });

  it('the walkthrough stays closed while the chat is in view, and the palette the user has open stays open', async () => {
    const walkthroughTab = wb.page.locator('.tabs-container .tab', { hasText: /Walkthrough/ });
    const palette = wb.page.locator('.quick-input-widget .quick-input-box input');
    await wb
      .chatFrame()
      .getByRole('heading', { name: 'A demo model answers here' })
      .waitFor({ timeout: 60_000 });
    // A first install opens the walkthrough a few seconds after Logbook starts; here the chat is on
    // screen, so it must not, and must not take the focus from the palette meanwhile.
    await wb.page.keyboard.press('F1');
    await palette.fill('>Logbook');
    await wb.page.waitForTimeout(12_000);
    assert.equal(await walkthroughTab.count(), 0, 'no walkthrough over the chat');
    assert.ok(await palette.isVisible(), 'the palette stays open');
    assert.equal(await palette.inputValue(), '>Logbook', 'with what the user typed');
    await wb.page.keyboard.press('Escape');
  });

  it('the short URL opens the sample workspace on the chat, under the Logbook icon', async () => {
    assert.match(wb.page.url(), /[?&]folder=/, 'the root URL led to the sample folder');
    const tab = wb.page.getByRole('tab', { name: /^Logbook/ });
    // Nobody clicks: the window opens on it.
    for (let i = 0; i < 120 && (await tab.getAttribute('aria-selected')) !== 'true'; i++) {
      await wb.page.waitForTimeout(500);
    }
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    const chat = wb.chatFrame();
    await chat.getByRole('heading', { name: 'A demo model answers here' }).waitFor({ timeout: 60_000 });
    await chat.getByRole('button', { name: 'Add a subtract function to src/math.js' }).waitFor();
    // The icon is Logbook's own (a book with a ribbon and a check), not a generic glyph.
    const icon = await wb.page.evaluate(
      '[...document.styleSheets].flatMap((s) => { try { return [...s.cssRules].map((r) => r.cssText); } catch { return []; } }).find((t) => t.includes("logbook.svg")) ?? ""',
    );
    assert.match(String(icon), /logbook\.svg/);
    assert.match(
      readFileSync(join(__dirname, '..', '..', 'media', 'logbook.svg'), 'utf8'),
      /M11\.4 14\.2l1\.7 1\.7/,
    );
    // Two titles, not three: the container and the view; the chat itself adds none.
    assert.equal(await chat.locator('.header .title').count(), 0);
    await setSidebarWidth(wb, 300);
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`opened-on-chat-${slug(theme)}`);
    }
    await setTheme(wb, THEMES[0]!);
  });

  it('the model picker offers Connect a model…, which asks for the endpoint first', async () => {
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Connect a model…' }).click();
    const rows = wb.page.locator('.quick-input-widget .monaco-list-row');
    const connect = rows.filter({ hasText: 'Connect a model…' }).first();
    await connect.waitFor({ timeout: 15_000 });
    await wb.shot('model-picker-connect');
    await connect.click();
    await wb.page
      .locator('.quick-input-widget', { hasText: 'Base URL of an OpenAI-compatible API' })
      .waitFor({ timeout: 15_000 });
    assert.equal(
      await wb.page.locator('.quick-input-widget .quick-input-box input').inputValue(),
      'https://api.openai.com/v1',
      'from the demo, OpenAI is proposed',
    );
    await wb.shot('connect-endpoint');
    await wb.page.keyboard.press('Escape');
  });

  it('Settings: ordered categories, the endpoint and model first, and a search for "key" finds how to set one', async () => {
    await wb.runCommand('Preferences: Open Settings (UI)');
    const search = wb.page
      .locator('.settings-editor .suggest-input-container textarea, .settings-editor .settings-header input')
      .first();
    await search.waitFor({ timeout: 30_000 });
    await search.fill('@ext:logbook.logbook-agent');
    const toc = wb.page.locator('.settings-toc-container .monaco-list-row');
    await toc
      .filter({ hasText: /^Model\b/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const names = (await toc.allInnerTexts()).map((t) => t.replace(/\s*\(\d+\)\s*$/, '').trim());
    const order = ['Model', 'Confirmation', 'Sandbox', 'Checkpoints', 'Budget', 'MCP', 'Advanced'];
    const at = order.map((n) => names.indexOf(n));
    assert.ok(
      at.every((i) => i >= 0),
      names.join(' | '),
    );
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
      `in order: ${names.join(' | ')}`,
    );
    // The list reuses its row elements, so their order in the page is not the order shown.
    const rows = await wb.page.locator('.settings-editor .settings-tree-container .monaco-list-row').all();
    const shown = await Promise.all(
      rows.map(async (r) => ({
        at: Number(await r.getAttribute('data-index')),
        label: (await r.locator('.setting-item-label').allInnerTexts())[0] ?? '',
      })),
    );
    const labels = shown
      .filter((r) => r.label !== '')
      .sort((a, b) => a.at - b.at)
      .map((r) => r.label);
    assert.deepEqual(
      labels.slice(0, 3),
      ['Provider', 'Base URL', 'Name'],
      'in their order, not alphabetical, and "URL" written as such',
    );
    await wb.shot('settings-categories');
    const count = wb.page.locator('.settings-editor .settings-count-widget');
    const all = await count.innerText();
    await search.fill('@ext:logbook.logbook-agent key');
    // The search applies after a pause: wait for the count to change, then look at what is left.
    for (let i = 0; i < 60 && (await count.innerText()) === all; i++) await wb.page.waitForTimeout(250);
    assert.notEqual(await count.innerText(), all, 'the search for "key" narrowed the list');
    const howToSetKey = wb.page
      .locator('.settings-editor .setting-item-contents', {
        has: wb.page.locator('.setting-item-description', { hasText: 'Logbook: Connect a Model' }),
      })
      .first();
    await howToSetKey.waitFor({ timeout: 30_000 });
    assert.match(await settingTitle(howToSetKey), /Model: Base URL$/, 'the row that says how to set a key');
    await wb.shot('settings-search-key');
  });

  it('Settings: a search for "logbook base url" finds "Model: Base URL", not "Llm", in each theme at 300 px', async () => {
    const search = wb.page
      .locator('.settings-editor .suggest-input-container textarea, .settings-editor .settings-header input')
      .first();
    // The search box is a small editor: fill() would add to what the last search left there.
    await search.focus();
    await wb.page.keyboard.press('Control+A');
    await wb.page.keyboard.type('logbook base url');
    // The box renders what was typed a moment later: wait for it, then check nothing else is there.
    const shown = () =>
      wb.page
        .locator('.settings-editor .settings-header .view-lines')
        .innerText()
        .then((t) => t.replace(/\s/g, ' '));
    for (let i = 0; i < 50 && (await shown()) !== 'logbook base url'; i++) await wb.page.waitForTimeout(100);
    assert.equal(
      await shown(),
      'logbook base url',
      'the search is what a user types, with no filter left from before',
    );
    const row = wb.page
      .locator('.settings-editor .setting-item-contents', {
        has: wb.page.locator('.setting-item-label', { hasText: /^Base URL$/ }),
        hasText: 'OpenAI-compatible',
      })
      .first();
    await row.waitFor({ timeout: 30_000 });
    // Search results name each setting's category too: "Logbook › Model: Base URL".
    assert.equal(await settingTitle(row), 'Logbook › Model: Base URL');
    const titles = await wb.page.locator('.settings-editor .setting-item-title').allInnerTexts();
    assert.ok(
      titles.every((t) => !/\bLlm\b|Base Url/.test(t)),
      `no "Llm" nor "Base Url" label: ${titles.join(' | ')}`,
    );
    await setSidebarWidth(wb, 300);
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`settings-search-base-url-${slug(theme)}`);
    }
    await setTheme(wb, THEMES[0]!);
  });
});

/** A setting row's title as the Settings editor shows it: category, then label. */
async function settingTitle(row: Locator): Promise<string> {
  const [category, label] = await Promise.all([
    row.locator('.setting-item-category').innerText(),
    row.locator('.setting-item-label').innerText(),
  ]);
  return `${category}${label}`.replace(/\s+/g, ' ').trim();
}
