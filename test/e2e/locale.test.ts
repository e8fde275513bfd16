// The editor in Simplified Chinese (code-server started with --locale zh-cn and a language pack
// registered for it): the palette shows Logbook's command title in Chinese, the task prompt is the
// extension's translated message, and the chat's document carries the language and its Chinese
// words (the Confirm button, the composer, the header's status). The Conversations view's row and
// the Diagnostics view (rows made by the shared core) are Chinese too, in a 300 px sidebar. Each
// step is captured.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { openWorkbench, screenshotRoot, setSidebarWidth, type Workbench } from './support/workbench';

const root = join(__dirname, '..', '..');
const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
const zhBundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;
const START_TASK = `${zh['category']}: ${zh['logbook.startTask.title']}`;
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
                  arguments: { command: 'ls', security_risk: 'LOW', summary: 'List the files' },
                },
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
    assert.match(label, new RegExp(`^\\d\\d:\\d\\d · ${word('waiting for approval')} · 列出文件`), label);
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
