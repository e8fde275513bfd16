// The editor in Simplified Chinese (code-server started with --locale zh-cn and a language pack
// registered for it): the palette shows Logbook's command title in Chinese, the task prompt is the
// extension's translated message, and the chat's document carries the language and its Chinese
// words (the Confirm button, the composer, the header's status). Each step is captured.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

const root = join(__dirname, '..', '..');
const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
const zhBundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;
const START_TASK = `${zh['category']}: ${zh['logbook.startTask.title']}`;

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
});
