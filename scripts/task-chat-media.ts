// Pictures of a worktree task in the chat, to look at with your own eyes (not a test: nothing is
// compared): "Start Agent Task in Worktree" from the palette, the task's edit waiting for Confirm
// in the chat (the header names its branch), then done. Each state is taken at a 300 px sidebar in
// Light, Dark and High Contrast, under test-results/e2e/<run>/.
// Run: node --import tsx scripts/task-chat-media.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, screenshotRoot, setSidebarWidth, setTheme } from '../test/e2e/support/workbench';
import { answer, shot, THEMES, themeSlug } from './media-shots';

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

async function session(theme: string): Promise<void> {
  const slug = themeSlug(theme);
  // Not under /tmp, which the sandbox replaces with its own.
  const tasks = join(screenshotRoot, `task-chat-${slug}-worktrees`);
  mkdirSync(tasks, { recursive: true });
  const wb = await openWorkbench({
    name: `task-chat-${slug}`,
    settings: { 'logbook.confirmation.mode': 'always' },
    env: { LOGBOOK_WORKTREES_DIR: tasks },
    scenario: {
      name: 'task-chat-media',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [EDIT] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Added subtract() on the task branch.' } },
      ],
    },
  });
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Pictures', '-c', 'user.email=p@example.com', ...args], {
        cwd: wb.workspaceDir,
      });
    git('init', '--quiet', '--initial-branch=main');
    git('add', '--all');
    git('commit', '--quiet', '-m', 'first');
    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const chat = wb.chatFrame();
    await wb.runCommand('Logbook: Start Agent Task in Worktree');
    await answer(wb, 'Start Agent Task in Worktree', 'Add a subtract function to src/math.js');
    await answer(wb, 'Task name', 'add-subtract');
    await answer(wb, 'Your uncommitted change', 'Start from HEAD');
    const bar = chat.locator('section.approval', { hasText: 'Add subtract() to src/math.js' });
    await bar.waitFor({ timeout: 60_000 });
    await shot(wb, 'task-asked', theme);
    await bar.getByRole('button', { name: 'Confirm' }).click();
    await chat.getByText('Added subtract() on the task branch.').first().waitFor({ timeout: 60_000 });
    await shot(wb, 'task-done', theme);
  } catch (err) {
    await wb.shot(`FAILED-${slug}`);
    throw err;
  } finally {
    await wb.close();
  }
}

void (async () => {
  console.log(`pictures: ${screenshotRoot}`);
  for (const theme of THEMES) await session(theme);
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
