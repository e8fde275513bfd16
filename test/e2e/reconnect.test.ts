// Coming back after closing the browser tab: code-server keeps the closed tab's extension host for
// its reconnection grace, still holding the workspace's storage folder, so the new tab's window is
// handed another one (`…-1`). The new tab opens on the conversation the closed one showed,
// read-only and saying which window writes it, and asks to take it over: taken over, it is
// continued from the new tab within seconds while the old window still lives; a conversation whose
// old window is gone becomes writable by itself.
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

  it('a new tab opens on the conversation it showed, read-only, naming the window that writes it', async () => {
    // The browser keeps nothing of the closed tab: only what the server holds can bring its
    // conversation back (the window's own state lives in the browser and may never have been
    // written out before the crash).
    await wb.reopenTab({ forgetBrowserState: true });
    await wb.openLogbookView();
    // The chat shows the conversation the closed tab showed, without looking for it in the list.
    // Its text alone proves nothing: the webview's own saved state draws the old messages before
    // the extension host says anything. The read-only note naming the old window comes only from
    // a host that opened that conversation, so it is waited for before the list is touched.
    const shown = wb.chatFrame();
    await shown.getByText('The first note is written.').first().waitFor({ timeout: 60_000 });
    await shown
      .getByRole('note')
      .filter({ hasText: `pid ${oldHost}` })
      .waitFor({ timeout: 60_000 });
    await shown.getByText('Read-only', { exact: true }).waitFor({ timeout: 10_000 });
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
    // The composer offers nothing it cannot do (no mode, no attach toggles, no Send) and says why.
    await chat
      .getByRole('note')
      .filter({ hasText: 'Read-only here while another window writes it.' })
      .waitFor({ timeout: 10_000 });
    for (const name of ['Agent mode', 'Attach the active file', 'Send (Enter)'])
      assert.equal(
        await chat.getByRole(name === 'Agent mode' ? 'group' : 'button', { name }).count(),
        0,
        name,
      );
    await wb.page
      .getByText(
        /this conversation is open in the .* window on “ws”.*so it is read-only here\. Take it over here\?/,
      )
      .first()
      .waitFor({ timeout: 30_000 });
    await setSidebarWidth(wb, 300);
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast']) {
      await setTheme(wb, theme);
      await wb.shot(`read-only-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });

  it('taken over, it is writable within seconds while the old window lives on, and continues', async () => {
    const chat = wb.chatFrame();
    let takeOver = wb.page.locator('.notification-toast').getByRole('button', { name: 'Take Over Here' });
    if (!(await takeOver.first().isVisible())) {
      // The toast hid itself: the question waits in the notification list.
      await wb.runCommand('Notifications: Show Notifications');
      takeOver = wb.page.locator('.notifications-center').getByRole('button', { name: 'Take Over Here' });
    }
    const asked = Date.now();
    await takeOver.first().click();
    await chat.getByText('Read-only', { exact: true }).waitFor({ state: 'hidden', timeout: 15_000 });
    assert.ok(Date.now() - asked < 15_000, 'writable within seconds');
    assert.ok(
      isProcessAlive(oldHost),
      "the closed tab's extension host still lives: it let the conversation go",
    );
    await wb.page
      .getByText(/“Write the first note” is writable here now/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByRole('note').filter({ hasText: 'becomes writable' }).count(), 0);
    await chat.getByRole('group', { name: 'Agent mode' }).waitFor({ timeout: 10_000 });
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

  it('a conversation whose old window is gone becomes writable by itself', async () => {
    // What the end of the reconnection grace does, without waiting for it; SIGKILL leaves nothing
    // to answer a request, as a crash would.
    await wb.reopenTab();
    await wb.openLogbookView();
    const chat = wb.chatFrame();
    await chat.getByText('The second note is added.').first().waitFor({ timeout: 60_000 });
    const dirs = conversationDirs();
    const holder = JSON.parse(readFileSync(join(dirs[0]!, 'LOCK'), 'utf8')) as { pid: number };
    if (await chat.getByText('Read-only', { exact: true }).isVisible()) process.kill(holder.pid, 'SIGKILL');
    await chat.getByText('Read-only', { exact: true }).waitFor({ state: 'hidden', timeout: 30_000 });
    await chat.getByRole('textbox', { name: 'Message to the agent' }).waitFor();
  });
});
