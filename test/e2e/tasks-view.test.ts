// The Tasks view at the sidebar's narrow default (300 px): each task's row (name, status, files
// changed) in view, in Light, Dark and High Contrast. Screenshots go under test-results/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTask } from '../../src/host/node/worktrees/create-task';
import { repositoryAt, TaskStore } from '../../src/host/node/worktrees/task-store';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];

describe('e2e: the Tasks view at 300 px', function () {
  let wb: Workbench;
  let data: string;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    const outside = join(__dirname, '..', '..', 'test-results', 'outside');
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'tasks-view-'));
    wb = await openWorkbench({
      name: 'tasks-view',
      env: { LOGBOOK_WORKTREES_DIR: data },
      settings: { 'workbench.colorTheme': 'Default Light Modern' },
    });
    const ws = wb.workspaceDir;
    writeFileSync(join(ws, 'app.txt'), 'line 1\nline 2\n');
    for (const args of [
      ['init', '--quiet'],
      ['add', '--all'],
      ['commit', '--quiet', '-m', 'first'],
    ])
      execFileSync('git', [...ID, ...args], { cwd: ws });
    const store = new TaskStore(data, repositoryAt(ws));
    for (const [name, task] of [
      ['fix-login-test', 'Fix the failing login test'],
      ['rename-config-loader', 'Rename the config loader and update its callers'],
      ['add-retry', 'Add a retry to the HTTP client'],
    ] as const) {
      const { record } = createTask(store, { from: ws, name, task });
      writeFileSync(join(record.worktree, 'app.txt'), `line 1\nline 2 by ${name}\n`);
      writeFileSync(join(record.worktree, `${name}.md`), `${task}\n`);
    }
    store.put({ ...store.get('add-retry'), status: 'applied' });
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
  });

  after(async () => {
    await wb?.close();
    rmSync(data, { recursive: true, force: true });
  });

  it('lists each task with its status and files changed, in view, in Light, Dark and High Contrast', async () => {
    const header = wb.page
      .locator('.pane-header')
      .filter({ has: wb.page.locator('h3.title', { hasText: /^Tasks$/i }) });
    await header.waitFor({ timeout: 30_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const pane = wb.page.locator('.pane').filter({ has: header });
    const rows = pane.locator('.monaco-list-row');
    await rows.first().waitFor({ timeout: 30_000 });
    assert.equal(await rows.count(), 3);
    const row = rows.filter({ hasText: 'fix-login-test' });
    assert.match((await row.innerText()).replace(/\s+/g, ' '), /fix-login-test ?\w+ · 2 file\(s\)/);
    const sidebar = await wb.page.locator('.part.sidebar').boundingBox();
    const label = await row.locator('.label-name').boundingBox();
    assert.ok(sidebar && label && label.x + label.width <= sidebar.x + sidebar.width, 'the name is cut off');
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`tasks-view-${theme.toLowerCase().replace(/\s+/g, '-')}`);
    }
  });
});
