// Takes the walkthrough's pictures (media/walkthrough/NAME-THEME.png) in the real workbench, once
// in a light and once in a dark theme, so VS Code shows the one of the user's kind:
// a scripted model for planning, approving and restoring, the demo model for the first task, and a
// window with no model yet for connecting one and for the diagnostics. The scripted model goes by the name of a model a
// user would run (its test name and address are nowhere in a picture). Each picture is the part of
// the window that matters (the sidebar or the palette), with few colours (no dithering) to stay small.
// Run: node --import tsx scripts/walkthrough-media.ts [light|dark] [scripted|diagnostics|demo].
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { DEMO_TASK } from '../src/host/node/demo-model/demo-model';
import { openWorkbench, setSidebarWidth, setTheme, type Workbench } from '../test/e2e/support/workbench';

const out = join(__dirname, '..', 'media', 'walkthrough');
mkdirSync(out, { recursive: true });

/**
 * The themes pictured, each with the key VS Code picks its picture by (package.json's media; high
 * contrast themes show the picture of their light or dark kind: a third set would put the .vsix
 * over its 1 MB).
 */
const THEMES = [
  { theme: 'Light Modern', kind: 'light' },
  { theme: 'Dark Modern', kind: 'dark' },
] as const;
type Kind = (typeof THEMES)[number]['kind'];

/** The name the scripted model goes by in the pictures. */
const MODEL_NAME = 'qwen2.5-coder';

async function save(
  wb: Workbench,
  kind: Kind,
  name: string,
  target: Locator,
  maxHeight = 560,
): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error(`${name}: nothing to capture`);
  const file = join(out, `${name}-${kind}.png`);
  // No hover tooltip over the picture (the palette's title shows one where the pointer rests).
  const size = wb.page.viewportSize();
  if (size) await wb.page.mouse.move(size.width - 4, size.height / 2);
  await wb.page.waitForTimeout(400);
  await wb.page.screenshot({
    path: file,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, maxHeight) },
  });
  // Fewer colours where pngquant is installed (apt-get install pngquant): the package stays small.
  try {
    execFileSync('pngquant', ['--force', '--nofs', '--skip-if-larger', '--output', file, '8', file]);
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

async function scripted(theme: string, kind: Kind): Promise<void> {
  const wb = await openWorkbench({
    name: `walkthrough-media-${kind}`,
    settings: { 'logbook.confirmation.mode': 'always', 'logbook.model.name': MODEL_NAME },
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
          match: { lastRole: 'user', lastContentIncludes: 'Go ahead with this plan' },
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
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const sidebar = wb.page.locator('.part.sidebar');
    const palette = wb.page.locator('.quick-input-widget');
    const chat = wb.chatFrame();

    const plan = chat.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' });
    await plan.click();
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Add a subtract function to src/math.js');
    await box.press('Enter');
    await chat.getByRole('button', { name: 'Approve plan' }).waitFor({ timeout: 60_000 });
    await chat.getByText('Here is my plan').first().waitFor();
    await wb.page.waitForTimeout(500);
    await save(wb, kind, 'plan-mode', sidebar, 640);

    await chat.getByRole('button', { name: 'Approve plan' }).click();
    const bar = chat.locator('section.approval', { hasText: 'Add subtract() to src/math.js' });
    await bar.waitFor({ timeout: 60_000 });
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(800);
    await save(wb, kind, 'approve-reject', sidebar, 820);
    await bar.getByRole('button', { name: 'Confirm' }).click();
    await chat.getByText('Added subtract().').first().waitFor({ timeout: 60_000 });

    const action = chat.locator('article', { hasText: 'Add subtract() to src/math.js' }).last();
    await action.hover();
    await action.getByRole('button', { name: 'Restore files to here' }).click();
    const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
    await picker.waitFor({ timeout: 30_000 });
    await wb.page.waitForTimeout(800);
    await save(wb, kind, 'restore-files', picker);
    await wb.page.keyboard.press('Escape');

    await wb.runCommand('Logbook: Add MCP Server');
    await palette.waitFor();
    await wb.page.waitForTimeout(800);
    await save(wb, kind, 'add-mcp-server', palette);
    await wb.page.keyboard.press('Escape');
  } finally {
    await wb.close();
  }
}

/** Diagnostics in a window with no model set (the scripted model's address is no user's). */
async function diagnostics(theme: string, kind: Kind): Promise<void> {
  const wb = await openWorkbench({ name: `walkthrough-media-diagnostics-${kind}` });
  try {
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
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
    await save(wb, kind, 'diagnostics', pane, 700);
  } finally {
    await wb.close();
  }
}

/** A window with no model set: connecting one, then the demo's first task. */
async function demo(theme: string, kind: Kind): Promise<void> {
  const wb = await openWorkbench({ name: `walkthrough-media-demo-${kind}` });
  try {
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const palette = wb.page.locator('.quick-input-widget');
    await wb.runCommand('Logbook: Select Model');
    await palette.locator('.monaco-list-row').first().waitFor();
    await wb.page.waitForTimeout(500);
    await save(wb, kind, 'connect-model', palette);
    await wb.page.keyboard.press('Escape');

    await wb.runCommand('Logbook: Try the Demo Model');
    const chat = wb.chatFrame();
    // Its first command: asked about, or (contained, with a checkpoint to undo it) running.
    await chat
      .locator('section.approval, article', { hasText: 'npm test' })
      .first()
      .waitFor({ timeout: 60_000 });
    await wb.page.waitForTimeout(800);
    await save(wb, kind, 'first-task', wb.page.locator('.part.sidebar'), 820);
    console.log(`demo task: ${DEMO_TASK}`);
  } finally {
    await wb.close();
  }
}

void (async () => {
  // Optional: one kind of theme, and one of the windows (scripted, diagnostics, demo).
  const [onlyKind, onlyPart] = process.argv.slice(2);
  const parts = { scripted, diagnostics, demo };
  for (const { theme, kind } of THEMES) {
    if (onlyKind && onlyKind !== kind) continue;
    for (const [name, take] of Object.entries(parts))
      if (!onlyPart || onlyPart === name) await take(theme, kind);
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
