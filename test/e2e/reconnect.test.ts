// Coming back after closing the browser tab: code-server keeps the closed tab's extension host for
// its reconnection grace, still holding the workspace's storage folder, so the new tab's window is
// handed another one (`…-1`). The conversation is listed and opens, read-only and saying which
// window writes it; once that window is gone, it is continued from the new tab.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/core/log';
import {
  EXTENSION_ID,
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const TASK = 'Write the first note';

describe('e2e: history after closing the tab and opening it again', function () {
  let wb: Workbench;
  let oldHost = 0;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'reconnect',
      scenario: {
        name: 'e2e-reconnect',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'first note' },
            reply: { content: 'The first note is written.' },
          },
          {
            match: { lastRole: 'user', lastContentIncludes: 'second note' },
            reply: { content: 'The second note is added.' },
          },
        ],
      },
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  const storageRoot = () => join(wb.userDataDir, 'User', 'workspaceStorage');
  /** The conversation folders of the workspace, wherever they are in its storage folders. */
  const conversationDirs = () =>
    readdirSync(storageRoot()).flatMap((folder) => {
      const root = join(storageRoot(), folder, EXTENSION_ID, 'conversations');
      if (!existsSync(root)) return [];
      // Only folders: the index is rewritten through a passing `index.json.<n>.tmp` file.
      return readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(root, entry.name));
    });

  it('runs a task in the first tab', async () => {
    await wb.startTask(TASK);
    await wb.chatFrame().getByText('The first note is written.').first().waitFor({ timeout: 60_000 });
    const dirs = conversationDirs();
    assert.equal(dirs.length, 1, `one conversation: ${dirs.join(', ')}`);
    const lock = JSON.parse(readFileSync(join(dirs[0]!, 'LOCK'), 'utf8')) as { pid: number; holder?: string };
    oldHost = lock.pid;
    assert.ok(isProcessAlive(oldHost), "the first tab's extension host writes it");
    assert.match(lock.holder ?? '', /window on “ws”/);
    await wb.shot('first-tab');
  });

  it('a new tab lists the conversation and opens it read-only, naming the window that writes it', async () => {
    await wb.reopenTab();
    await wb.openLogbookView();
    await wb.showConversations();
    const row = wb.conversationRows(TASK).first();
    await row.waitFor({ timeout: 60_000 });
    // The situation: the old extension host keeps the storage folder, the new one got another.
    const folders = readdirSync(storageRoot());
    assert.ok(
      folders.some((f) => /-\d+$/.test(f)),
      `the new window was handed a second storage folder (${folders.join(', ')})`,
    );
    assert.ok(isProcessAlive(oldHost), "the closed tab's extension host lives on");
    await row.click();
    const chat = wb.chatFrame();
    await chat.getByText('The first note is written.').first().waitFor({ timeout: 60_000 });
    await chat.getByText('Read-only', { exact: true }).waitFor({ timeout: 60_000 });
    const note = chat.getByRole('note').filter({ hasText: `pid ${oldHost}` });
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.innerText(), /window on “ws” opened .* \(pid \d+\)\. It becomes writable here/);
    await wb.page
      .getByText(/this conversation is open in the .* window on “ws”.*so it is read-only here/)
      .first()
      .waitFor({ timeout: 30_000 });
    await setSidebarWidth(wb, 300);
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast']) {
      await setTheme(wb, theme);
      await wb.shot(`read-only-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });

  it('once the old window is gone it becomes writable with no restart, and continues', async () => {
    // What the end of the reconnection grace does, without waiting for it; SIGKILL leaves its lock
    // file behind, as a crash would.
    process.kill(oldHost, 'SIGKILL');
    const chat = wb.chatFrame();
    await chat.getByText('Read-only', { exact: true }).waitFor({ state: 'hidden', timeout: 30_000 });
    await wb.page
      .getByText(/“Write the first note” is writable here now/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByRole('note').filter({ hasText: 'becomes writable' }).count(), 0);
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Add a second note');
    await box.press('Enter');
    await chat.getByText('The second note is added.').first().waitFor({ timeout: 60_000 });
    await chat.getByText('The first note is written.').first().waitFor();
    const dirs = conversationDirs();
    assert.equal(dirs.length, 1, `still the one conversation, continued in place: ${dirs.join(', ')}`);
    const lock = JSON.parse(readFileSync(join(dirs[0]!, 'LOCK'), 'utf8')) as { pid: number };
    assert.notEqual(lock.pid, oldHost, "the new tab's extension host writes it now");
    await wb.shot('continued-in-the-new-tab');
  });
});
