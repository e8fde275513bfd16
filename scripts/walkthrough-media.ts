// Takes the walkthrough's pictures (media/walkthrough/*.png) in the real workbench: a scripted
// model for planning, approving and restoring, the demo model for the first task. Each picture is
// the part of the window that matters (the sidebar or the palette), with fewer colours to stay
// small. Run: node --import tsx scripts/walkthrough-media.ts.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { DEMO_TASK } from '../src/host/node/demo-model/demo-model';
import { openWorkbench, setSidebarWidth, setTheme, type Workbench } from '../test/e2e/support/workbench';

const out = join(__dirname, '..', 'media', 'walkthrough');
mkdirSync(out, { recursive: true });

async function save(wb: Workbench, name: string, target: Locator, maxHeight = 560): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error(`${name}: nothing to capture`);
  const file = join(out, `${name}.png`);
  await wb.page.screenshot({
    path: file,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, maxHeight) },
  });
  // Fewer colours where pngquant is installed (apt-get install pngquant): the package stays small.
  try {
    execFileSync('pngquant', ['--force', '--skip-if-larger', '--output', file, '64', file]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  console.log(`wrote ${file}`);
}

const EDIT = {
  id: 'call_edit',
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

async function scripted(): Promise<void> {
  const wb = await openWorkbench({
    name: 'walkthrough-media',
    settings: { 'logbook.confirmation.mode': 'risky' },
    scenario: {
      name: 'walkthrough-media',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'subtract' },
          reply: {
            toolCalls: [
              {
                id: 'call_plan',
                name: 'task_tracker',
                arguments: {
                  command: 'plan',
                  task_list: [
                    { title: 'Read src/math.js', notes: 'see how add() is exported', status: 'done' },
                    { title: 'Add subtract() beside add()', notes: 'export it too', status: 'todo' },
                    { title: 'Run the tests', notes: '', status: 'todo' },
                  ],
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool' },
          reply: { content: 'Here is my plan; approve it to go ahead.' },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'I approve this plan' },
          reply: { toolCalls: [EDIT] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'subtract' },
          reply: {
            toolCalls: [{ id: 'call_done', name: 'finish', arguments: { message: 'Added subtract().' } }],
          },
        },
      ],
    },
  });
  try {
    await setTheme(wb, 'Dark Modern');
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const sidebar = wb.page.locator('.part.sidebar');
    const palette = wb.page.locator('.quick-input-widget');
    const chat = wb.chatFrame();

    await wb.runCommand('Logbook: Select Model');
    await palette.locator('.monaco-list-row').first().waitFor();
    await wb.page.waitForTimeout(500);
    await save(wb, 'connect-model', palette);
    await wb.page.keyboard.press('Escape');

    const plan = chat.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' });
    await plan.click();
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Add a subtract function to src/math.js');
    await box.press('Enter');
    await chat.getByRole('button', { name: 'Approve plan' }).waitFor({ timeout: 60_000 });
    await chat.getByText('Here is my plan').first().waitFor();
    await wb.page.waitForTimeout(500);
    await save(wb, 'plan-mode', sidebar, 640);

    await chat.getByRole('button', { name: 'Approve plan' }).click();
    const bar = chat.locator('section.approval', { hasText: 'Add subtract() to src/math.js' });
    await bar.waitFor({ timeout: 60_000 });
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(800);
    await save(wb, 'approve-reject', sidebar, 820);
    await bar.getByRole('button', { name: 'Confirm' }).click();
    await chat.getByText('Added subtract().').first().waitFor({ timeout: 60_000 });

    const action = chat.locator('article', { hasText: 'Add subtract() to src/math.js' }).last();
    await action.hover();
    await action.getByRole('button', { name: 'Restore files to here' }).click();
    const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
    await picker.waitFor({ timeout: 30_000 });
    await wb.page.waitForTimeout(800);
    await save(wb, 'restore-files', picker);
    await wb.page.keyboard.press('Escape');

    await wb.runCommand('Logbook: Add MCP Server');
    await palette.waitFor();
    await wb.page.waitForTimeout(800);
    await save(wb, 'add-mcp-server', palette);
    await wb.page.keyboard.press('Escape');

    await wb.runCommand('Logbook: Show Diagnostics');
    const view = wb.page
      .frameLocator('iframe.webview[src*="extensionId=logbook.logbook-agent"]')
      .nth(1)
      .frameLocator('iframe#active-frame');
    await view.getByRole('heading', { name: /Storage/ }).waitFor({ timeout: 60_000 });
    // The chat folded away, so the picture is of the diagnostics alone.
    await wb.page
      .locator('.pane-header', { has: wb.page.locator('h3.title', { hasText: /^Chat$/i }) })
      .click();
    await wb.page.waitForTimeout(1_000);
    const pane = wb.page
      .locator('.pane')
      .filter({ has: wb.page.locator('.pane-header h3.title', { hasText: /^Diagnostics$/i }) });
    await save(wb, 'diagnostics', pane, 700);
  } finally {
    await wb.close();
  }
}

async function demo(): Promise<void> {
  const wb = await openWorkbench({ name: 'walkthrough-media-demo' });
  try {
    await setTheme(wb, 'Dark Modern');
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    await wb.runCommand('Logbook: Try the Demo Model');
    const chat = wb.chatFrame();
    await chat.locator('section.approval', { hasText: 'npm test' }).waitFor({ timeout: 60_000 });
    await wb.page.waitForTimeout(800);
    await save(wb, 'first-task', wb.page.locator('.part.sidebar'), 820);
    console.log(`demo task: ${DEMO_TASK}`);
  } finally {
    await wb.close();
  }
}

void (async () => {
  await scripted();
  await demo();
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
