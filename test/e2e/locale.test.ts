// The editor in Simplified Chinese (code-server started with --locale zh-cn and a language pack
// registered for it): the palette shows Logbook's command title in Chinese, the task prompt is the
// extension's translated message, and the chat's document carries the language and its Chinese
// words (the Confirm button, the composer, the header's status). The task then runs a command,
// creates a file and finishes: their cards read in Chinese, and fit a 300 px sidebar in Light, Dark
// and High Contrast. The Conversations view's row and the Diagnostics view (rows made by the shared
// core) are Chinese too, in a 300 px sidebar. Each step is captured.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const root = join(__dirname, '..', '..');
const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
const zhBundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;
const START_TASK = `${zh['category']}: ${zh['logbook.startTask.title']}`;
const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];

/** The Chinese of a chat word, its holes filled. */
function zhText(english: string, ...args: (string | number)[]): string {
  const text = zhBundle[english];
  assert.ok(text, `no translation of "${english}"`);
  return text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
}
const SHOW_DIAGNOSTICS = `${zh['category']}: ${zh['logbook.showDiagnostics.title']}`;
const word = (english: string): string => {
  const chinese = zhBundle[english];
  assert.ok(chinese && chinese !== english, `a Chinese text for "${english}"`);
  return chinese;
};

describe('e2e: the editor in Simplified Chinese', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'locale-zh-cn',
      locale: 'zh-cn',
      settings: { 'logbook.confirmation.mode': 'always' },
      scenario: {
        name: 'e2e-locale',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: {
              toolCalls: [
                {
                  id: 'call_ls',
                  name: 'terminal',
                  arguments: {
                    command: 'echo listed-files',
                    security_risk: 'LOW',
                    summary: 'List the files',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'listed-files' },
            reply: {
              toolCalls: [
                {
                  id: 'call_notes',
                  name: 'file_editor',
                  arguments: {
                    command: 'create',
                    path: 'NOTES_ZH.md',
                    file_text: '# 笔记\n\n文件已列出。\n',
                    security_risk: 'LOW',
                    summary: 'Write the notes',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'NOTES_ZH' },
            reply: {
              toolCalls: [
                { id: 'call_finish', name: 'finish', arguments: { message: '文件已列出，笔记已写好。' } },
              ],
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

  it('shows the command title, the task prompt and the chat’s Confirm button in Chinese', async () => {
    assert.equal(START_TASK, 'Logbook: 开始智能体任务');
    const page = wb.page;
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Logbook: 开始');
    const row = page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: START_TASK }) })
      .first();
    await row.waitFor({ timeout: 30_000 });
    await wb.shot('palette-command-in-chinese');
    await row.click();

    const prompt = zhBundle['What should the agent do?']!;
    await page.locator('.quick-input-widget', { hasText: prompt }).waitFor({ timeout: 30_000 });
    await wb.shot('task-prompt-in-chinese');
    await page.locator('.quick-input-widget .quick-input-box input').fill('列出文件');
    await page.keyboard.press('Enter');

    const chat = wb.chatFrame();
    const confirm = chat.locator('section.approval').getByRole('button', { name: zhBundle['Confirm'] });
    await confirm.waitFor({ timeout: 60_000 });
    assert.equal(await chat.locator('html').getAttribute('lang'), 'zh-cn', 'vscode.env.language');
    assert.equal(
      await chat.locator('textarea.composer-input').getAttribute('placeholder'),
      zhBundle['Ask Logbook… type @ to attach'],
    );
    assert.equal(await chat.locator('section.approval').getByRole('button', { name: 'Confirm' }).count(), 0);
    await chat.locator('header .status', { hasText: zhBundle['Waiting for approval']! }).waitFor();
    await wb.shot('chat-confirm-in-chinese');
  });

  it('shows the command, the edit and the finish as cards in Chinese', async () => {
    const chat = wb.chatFrame();
    await chat.locator('section.approval').getByRole('button', { name: zhBundle['Confirm'] }).click();
    // The command's card: its exit line and its output's toggle.
    const command = chat.locator('article.row-action').filter({ hasText: 'echo listed-files' });
    await command
      .locator('.result-note', { hasText: zhText('Exit code {0}', 0) })
      .waitFor({ timeout: 60_000 });
    const lines = new RegExp(`^${zhText('{1} · {0} lines', '\\d+', zhText('Output'))}$`);
    assert.match((await command.locator('.output-toggle').innerText()).trim(), lines);
    const position = new RegExp(`^${zhText('Tool call {0} of {1}', '\\d+', '\\d+')}$`);
    assert.match((await command.getAttribute('aria-label')) ?? '', position);

    // The edit asks: its card says what it does in Chinese, with its diff button and badges.
    const confirm = chat.locator('section.approval').getByRole('button', { name: zhBundle['Confirm'] });
    await confirm.waitFor({ timeout: 60_000 });
    const edit = chat.locator('article.row-action').filter({ hasText: 'NOTES_ZH.md' });
    await edit.locator('.file-verb', { hasText: zhText('Create') }).waitFor();
    await edit.locator('.pending-badge', { hasText: zhText('Awaiting approval') }).waitFor();
    await edit.locator('.diff-stats').waitFor();
    await confirm.click();
    await edit
      .getByRole('button', { name: zhText('Open diff of {0}', 'NOTES_ZH.md') })
      .waitFor({ timeout: 60_000 });
    await edit.locator('button', { hasText: zhText('Open diff') }).waitFor();

    // The finish card, the status, and the row's tools on hover.
    await chat.getByText('文件已列出，笔记已写好。').first().waitFor({ timeout: 60_000 });
    await chat.locator('header .status', { hasText: zhText('Finished') }).waitFor({ timeout: 30_000 });
    await command.locator('.card-head').hover();
    await command.getByRole('button', { name: zhText('Fork: continue from here') }).waitFor();
    await command.getByRole('button', { name: zhText('Restore files to here') }).waitFor();

    // Nothing of the cards is left in English.
    const feed = (await chat.locator('.feed .card').allInnerTexts())
      .join('\n')
      .replace(/echo listed-files|NOTES_ZH\.md|listed-files/g, '');
    for (const english of [
      'Exit code',
      'Output',
      'Open diff',
      'Create',
      'Fork',
      'Restore',
      'Status:',
      'lines',
    ])
      assert.equal(feed.includes(english), false, `"${english}" shows in the feed:\n${feed}`);
  });

  it('fits a 300 px sidebar in Light, Dark and High Contrast', async () => {
    const chat = wb.chatFrame();
    await setSidebarWidth(wb, 300);
    const sidebar = await wb.page.locator('.part.sidebar').boundingBox();
    assert.ok(sidebar && Math.abs(sidebar.width - 300) <= 2, `the sidebar is ${sidebar?.width} px wide`);
    // The edit's head hovered: its row tools (Fork, Restore) beside the risk badge.
    const head = chat.locator('article.row-action').filter({ hasText: 'NOTES_ZH.md' }).locator('.card-head');
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await head.hover();
      await head.getByRole('button', { name: zhText('Fork: continue from here') }).waitFor();
      // Text cut off in a line that does not wrap: the status, a card's head, an exit line.
      const clipped = await chat
        .locator('header .status, .card-head .tool-name, .result-note, .file-verb, .output-toggle')
        .evaluateAll((els) =>
          els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent ?? ''),
        );
      assert.deepEqual(clipped, [], `cut off in ${theme}`);
      await wb.shot(`cards-300px-${theme.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
    await setTheme(wb, THEMES[0]!);
  });

  it('shows the Conversations view’s row and the Diagnostics view in Chinese, fitting a 300 px sidebar', async () => {
    const page = wb.page;
    await setSidebarWidth(wb, 300);
    const header = page
      .locator('.pane-header')
      .filter({ has: page.locator('h3.title', { hasText: zh['view.logbook.conversations.name']! }) });
    await header.waitFor({ timeout: 30_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    // The task's row: its time, its status in Chinese, then its title.
    const row = page
      .locator('.pane')
      .filter({ has: header })
      .locator('.monaco-list-row', { hasText: '列出文件' })
      .first();
    await row.waitFor({ timeout: 30_000 });
    const label = await row.innerText();
    assert.match(label, new RegExp(`^\\d\\d:\\d\\d · ${word('finished')} · 列出文件`), label);
    await wb.shot('conversations-row-in-chinese');

    await wb.runCommand(SHOW_DIAGNOSTICS);
    const frame = await diagnosticsFrame(page.frames.bind(page));
    // The chat and the list folded, so the shots show the report itself.
    for (const name of [zh['view.logbook.chat.name']!, zh['view.logbook.conversations.name']!]) {
      const pane = page
        .locator('.pane-header[aria-expanded="true"]')
        .filter({ has: page.locator('h3.title', { hasText: new RegExp(`^${name}$`) }) });
      if (await pane.count()) await pane.first().click();
    }
    for (const title of ['Sandbox', 'Model', 'MCP servers', 'Signing identity', 'Storage']) {
      await frame.locator('h2', { hasText: word(title) }).waitFor({ timeout: 30_000 });
    }
    await frame.getByRole('button', { name: word('Check Again') }).waitFor();
    await frame.getByRole('button', { name: word('Clean Up Old Checkpoints…') }).waitFor();
    assert.equal(await frame.locator('html').getAttribute('lang'), 'zh-cn');
    const labels = await frame.locator('.label').allInnerTexts();
    for (const l of ['State', 'Endpoint', 'API key', 'Identity', 'Checkpoints', 'Old checkpoints'])
      assert.ok(
        labels.includes(word('{0}:').replace('{0}', word(l))),
        `${word(l)} among ${labels.join(', ')}`,
      );
    // Nothing wider than the view: a long row wraps rather than running off its edge.
    const overflow = await frame.locator('body').evaluate((b) => b.scrollWidth - b.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the view`);
    await wb.shot('diagnostics-in-chinese');
  });
});

/** The Diagnostics view's document: the webview frame whose page has the sandbox section. */
async function diagnosticsFrame(frames: () => Frame[]): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const f of frames()) {
      if (
        await f
          .locator('#h-sandbox')
          .count()
          .catch(() => 0)
      )
        return f;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the Diagnostics view did not show its report');
}
