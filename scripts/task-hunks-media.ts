// Pictures of a worktree task reviewed per hunk, to look at with your own eyes (not a test:
// nothing is compared): a task changed two places of src/cart.js; Review Task per Hunk opens its
// change, the file with the inline review's Accept / Reject above each hunk; then one is rejected.
// Each state is taken at a 300 px sidebar in Light, Dark and High Contrast, under
// test-results/e2e/<run>/. Run: node --import tsx scripts/task-hunks-media.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTask } from '../src/host/node/worktrees/create-task';
import { repositoryAt, TaskStore } from '../src/host/node/worktrees/task-store';
import { openWorkbench, screenshotRoot, setSidebarWidth, setTheme } from '../test/e2e/support/workbench';
import { shot, THEMES, themeSlug } from './media-shots';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const BASE = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const item of items) sum += item.price;',
  '  return sum;',
  '}',
  '',
  'function label(item) {',
  '  return item.name;',
  '}',
  '',
  'module.exports = { total, label };',
  '',
].join('\n');
const CHANGED = BASE.replace(
  '  for (const item of items) sum += item.price;',
  '  for (const item of items) sum += item.price * (item.quantity ?? 1);',
).replace('  return item.name;', '  return `${item.name} (${item.quantity ?? 1})`;');

async function session(theme: string, data: string): Promise<void> {
  const wb = await openWorkbench({
    name: `task-hunks-${themeSlug(theme)}`,
    env: { LOGBOOK_WORKTREES_DIR: data },
  });
  try {
    const ws = wb.workspaceDir;
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'cart.js'), BASE);
    for (const args of [
      ['init', '--quiet'],
      ['add', '--all'],
      ['commit', '--quiet', '-m', 'first'],
    ])
      execFileSync('git', [...ID, ...args], { cwd: ws });
    const store = new TaskStore(data, repositoryAt(ws));
    const { record } = createTask(store, { from: ws, task: 'Count quantities in the cart', name: 'cart' });
    writeFileSync(join(record.worktree, 'src', 'cart.js'), CHANGED);

    await setTheme(wb, theme);
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
    await wb.runCommand('Logbook: Review Task per Hunk');
    const pick = wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'cart' }).first();
    await pick.waitFor({ timeout: 30_000 });
    await pick.click();
    await wb.page.locator('.codelens-decoration').first().waitFor({ timeout: 30_000 });
    await shot(wb, 'review', theme, 800);
    await wb.page
      .locator('.codelens-decoration a', { hasText: /^\s*Reject\s*$/ })
      .first()
      .click();
    await wb.page.waitForTimeout(1_500);
    await shot(wb, 'rejected', theme, 800);
  } finally {
    await wb.close();
  }
}

void (async () => {
  console.log(`pictures: ${screenshotRoot}`);
  const outside = join(__dirname, '..', 'test-results', 'outside');
  mkdirSync(outside, { recursive: true });
  for (const theme of process.env.THEME ? [process.env.THEME] : THEMES) {
    const data = mkdtempSync(join(outside, 'task-hunks-media-'));
    try {
      await session(theme, data);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
