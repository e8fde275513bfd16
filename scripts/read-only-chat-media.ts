// Pictures of the chat at a 300 px sidebar, to look at with your own eyes (not a test: nothing is
// compared): a worktree task's conversation when it is done, then the same conversation once the
// task is discarded at the terminal (read-only: the composer says why, with no mode or attach
// toggles), each in Light, Dark and High Contrast, under test-results/e2e/<run>/.
// Run: node --import tsx scripts/read-only-chat-media.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, printed } from '../test/unit/cli/cli-runner';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from '../test/e2e/support/workbench';
import { answer, shot, THEMES } from './media-shots';

const NAME = 'rename-config-loader';

const EDIT = {
  id: 'call_edit',
  name: 'file_editor',
  arguments: {
    command: 'str_replace',
    path: 'src/config.js',
    old_str: 'function loadConfig() {',
    new_str: 'function readSettings() {',
    security_risk: 'LOW',
    summary: 'Rename loadConfig() to readSettings()',
  },
};

/** A picture of `step` in each theme. */
async function shots(wb: Workbench, step: string): Promise<void> {
  for (const theme of THEMES) {
    await setTheme(wb, theme);
    await shot(wb, step, theme);
  }
}

void (async () => {
  console.log(`pictures: ${screenshotRoot}`);
  // Not under /tmp, which the sandbox replaces with its own.
  const tasks = join(screenshotRoot, 'read-only-chat-worktrees');
  mkdirSync(tasks, { recursive: true });
  const wb = await openWorkbench({
    name: 'read-only-chat',
    settings: { 'logbook.confirmation.mode': 'never' },
    env: { LOGBOOK_WORKTREES_DIR: tasks },
    scenario: {
      name: 'read-only-chat-media',
      turns: [
        { match: { lastRole: 'user' }, reply: { toolCalls: [EDIT] } },
        { match: { lastRole: 'tool' }, reply: { content: 'Renamed loadConfig() to readSettings().' } },
      ],
    },
  });
  try {
    const ws = wb.workspaceDir;
    mkdirSync(join(ws, 'src'), { recursive: true });
    execFileSync('sh', ['-c', 'printf "function loadConfig() {\\n  return {};\\n}\\n" > src/config.js'], {
      cwd: ws,
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Pictures', '-c', 'user.email=p@example.com', ...args], {
        cwd: ws,
      });
    git('init', '--quiet', '--initial-branch=main');
    git('add', '--all');
    git('commit', '--quiet', '-m', 'first');
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    const chat = wb.chatFrame();
    await wb.runCommand('Logbook: Start Agent Task in Worktree');
    await answer(wb, 'Start Agent Task in Worktree', 'Rename the config loader and update its callers');
    await answer(wb, 'Task name', NAME);
    await answer(wb, 'Your uncommitted change', 'Start from HEAD').catch(() => undefined);
    await chat.getByText('Renamed loadConfig() to readSettings().').first().waitFor({ timeout: 60_000 });
    await shots(wb, 'task-done');
    const discard = await runCli(['discard', NAME], { cwd: ws, env: { LOGBOOK_WORKTREES_DIR: tasks } });
    if (discard.code !== 0) throw new Error(printed(discard));
    await chat.getByRole('note').filter({ hasText: 'was discarded' }).waitFor({ timeout: 30_000 });
    await shots(wb, 'task-discarded');
  } catch (err) {
    await wb.shot('FAILED');
    throw err;
  } finally {
    await wb.close();
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
