// Pictures of a day's use of the chat and the editor, to look at with your own eyes (not a test:
// nothing is compared). Two confirmed edits of src/math.js; one hunk rejected in the editor; the
// first edit restored from the chat and the restore undone; the row tools reached by keyboard;
// time travel; the window reloaded. Each state is taken at a 300 px sidebar in Light, Dark and
// High Contrast, under test-results/e2e/<run>/. A step that fails is pictured and the next runs.
// Run: node --import tsx scripts/daily-use-media.ts [Light|Dark|demo]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from '../test/e2e/support/workbench';
import { shot, THEMES, themeSlug } from './media-shots';

const HEADER = {
  id: 'call_header',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'src/math.js',
    old_str: 'function add(a, b) {',
    new_str: '// Small arithmetic helpers.\nfunction add(a, b) {',
    security_risk: 'MEDIUM',
    summary: 'Describe src/math.js in a comment',
  },
};

const SUBTRACT = {
  id: 'call_subtract',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'src/math.js',
    old_str: 'module.exports = { add };',
    new_str: 'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
    security_risk: 'MEDIUM',
    summary: 'Add subtract() to src/math.js',
  },
};

async function step(wb: Workbench, name: string, theme: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    await shot(wb, name, theme);
  } catch (err) {
    console.error(`${theme}: ${name} failed: ${String(err)}`);
    await wb.shot(`FAILED-${name}`).catch(() => undefined);
  }
}

async function session(theme: string): Promise<void> {
  const wb = await openWorkbench({
    name: `daily-use-${themeSlug(theme)}`,
    settings: { 'logbook.confirmation.mode': 'always' },
    scenario: {
      name: 'daily-use-media',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [HEADER] } },
        {
          match: { lastRole: 'tool', lastContentIncludes: 'Small arithmetic' },
          reply: { toolCalls: [SUBTRACT] },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'Done. src/math.js now exports subtract().' } },
      ],
    },
  });
  const chat = wb.chatFrame();
  try {
    await wb.openLogbookView();
    // The empty chat as first painted, before anything else is done.
    await wb.page.waitForTimeout(1_500);
    await wb.shot(`first-paint-${themeSlug(theme)}`);
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    await step(wb, 'empty-chat', theme, async () => {});
    await step(wb, 'asked-header', theme, async () => {
      await wb.startTask('Describe math.js and add a subtract function');
      const bar = chat.locator('section.approval', { hasText: 'Describe src/math.js' });
      await bar.waitFor({ timeout: 60_000 });
    });
    await step(wb, 'asked-subtract', theme, async () => {
      await chat
        .locator('section.approval', { hasText: 'Describe src/math.js' })
        .getByRole('button', { name: 'Confirm' })
        .click();
      await chat.locator('section.approval', { hasText: 'Add subtract()' }).waitFor({ timeout: 60_000 });
    });
    await step(wb, 'marks', theme, async () => {
      await chat
        .locator('section.approval', { hasText: 'Add subtract()' })
        .getByRole('button', { name: 'Confirm' })
        .click();
      await chat.getByText('Done. src/math.js now exports subtract().').first().waitFor({ timeout: 60_000 });
      await wb.page.locator('.codelens-decoration').first().waitFor({ timeout: 30_000 });
    });
    await step(wb, 'hunk-reject-tooltip', theme, async () => {
      const titles = await wb.page
        .locator('.codelens-decoration a')
        .evaluateAll((els) =>
          els.map((el) => `${el.textContent ?? ''} [${el.getAttribute('title') ?? 'no tooltip'}]`),
        );
      console.log(`${theme}: hunk actions: ${titles.join(' · ')}`);
      const reject = wb.page.locator('.codelens-decoration a', { hasText: /^\W*Reject$/ }).first();
      await reject.hover();
      await wb.page.waitForTimeout(1_500);
      await wb.shot(`hover-reject-${themeSlug(theme)}`);
      await reject.click();
      await wb.page.waitForTimeout(2_000);
    });
    await step(wb, 'row-tools-by-keyboard', theme, async () => {
      const row = chat.locator('article', { hasText: 'Describe src/math.js' }).first();
      const restore = row.getByRole('button', { name: /Restore files to here/ });
      await restore.focus();
      await restore.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    });
    await step(wb, 'restored', theme, async () => {
      const row = chat.locator('article', { hasText: 'Describe src/math.js' }).first();
      await row.getByRole('button', { name: /Restore files to here/ }).click();
      const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
      await picker
        .locator('.monaco-list-row', { hasText: 'Restore Files' })
        .first()
        .click({ timeout: 30_000 });
      await chat
        .getByText(/Files restored to before: /)
        .first()
        .waitFor({ timeout: 30_000 });
      await wb.page.waitForTimeout(1_500);
      console.log(`${theme}: restored:\n${readFileSync(`${wb.workspaceDir}/src/math.js`, 'utf8')}`);
    });
    await step(wb, 'undone', theme, async () => {
      const notice = chat.locator('article', { hasText: 'Files restored to before: ' }).last();
      await notice.getByRole('button', { name: /^Undo:/ }).click();
      const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
      await picker
        .locator('.monaco-list-row', { hasText: 'Restore Files' })
        .first()
        .click({ timeout: 30_000 });
      await chat
        .getByText(/Restore undone/)
        .first()
        .waitFor({ timeout: 30_000 });
      await wb.page.waitForTimeout(1_500);
      console.log(`${theme}: undone:\n${readFileSync(`${wb.workspaceDir}/src/math.js`, 'utf8')}`);
    });
    await step(wb, 'time-travel', theme, async () => {
      const slider = chat.getByRole('slider', { name: /Timeline/ });
      await slider.focus();
      await wb.page.keyboard.press('Home');
      for (let i = 0; i < 6; i++) await wb.page.keyboard.press('ArrowRight');
      await chat.locator('.timeline-panel').waitFor({ timeout: 30_000 });
      console.log(`${theme}: slider says "${await slider.getAttribute('aria-valuetext')}"`);
      await shot(wb, 'time-travel-back', theme);
      await chat.getByRole('button', { name: /Live/ }).first().click();
    });
    await step(wb, 'reloaded', theme, async () => {
      await wb.page.reload();
      await wb.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      await wb.openLogbookView();
      await chat.getByText('Done. src/math.js now exports subtract().').first().waitFor({ timeout: 60_000 });
      await wb.page.waitForTimeout(1_500);
    });
    const text = await chat
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch(() => '');
    console.log(`${theme}: the chat at the end:\n${text}`);
  } finally {
    await wb.close();
  }
}

/** What `npm start` shows first: the demo's empty chat from the first paint, then in each theme. */
async function demoFirstPaint(): Promise<void> {
  const runDir = join(mkdtempSync(join(tmpdir(), 'logbook-media-')), 'start');
  const wb = await openWorkbench({ name: 'daily-use-demo', sampleRunDir: runDir });
  try {
    await wb.page.waitForTimeout(1_000);
    await wb.shot('first-paint');
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.openLogbookView();
      await setSidebarWidth(wb, 300);
      await shot(wb, 'demo-empty-chat', theme);
    }
  } finally {
    await wb.close();
    rmSync(join(runDir, '..'), { recursive: true, force: true });
  }
}

void (async () => {
  console.log(`pictures: ${screenshotRoot}`);
  const only = process.argv[2];
  if (only === 'demo') return demoFirstPaint();
  for (const theme of only ? THEMES.filter((t) => t.startsWith(only)) : THEMES) await session(theme);
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
