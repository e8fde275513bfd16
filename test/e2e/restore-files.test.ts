import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contrastViolations } from './support/contrast';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const TASK = 'Rewrite the note';

describe('e2e: Restore files to here from the chat', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'restore-files',
      settings: { 'logbook.confirmation.mode': 'never' },
      scenario: {
        name: 'e2e-restore-files',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'Rewrite' },
            reply: {
              toolCalls: [
                {
                  id: 'call_rewrite',
                  name: 'terminal',
                  arguments: {
                    command: 'echo rewritten by the agent > note-e2e.txt && echo made > made-e2e.txt',
                    security_risk: 'LOW',
                    summary: 'Rewrite the note',
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'The note is rewritten.' } },
        ],
      },
    });
    writeFileSync(join(wb.workspaceDir, 'note-e2e.txt'), 'the original note\n');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  it('the agent changes files; the file is open in an editor', async () => {
    await wb.startTask(TASK);
    const chat = wb.chatFrame();
    await chat.getByText('The note is rewritten.').first().waitFor({ timeout: 60_000 });
    assert.equal(readFileSync(join(wb.workspaceDir, 'note-e2e.txt'), 'utf8'), 'rewritten by the agent\n');
    await wb.runCommand('Go to File...');
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    await box.fill('note-e2e.txt');
    await wb.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'note-e2e.txt' })
      .first()
      .click();
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'rewritten by the agent' }).waitFor();
    await wb.shot('agent-changed-the-note');
  });

  it('"Restore files to here" lists the files, and restoring changes the disk and the editor', async () => {
    const chat = wb.chatFrame();
    const action = chat.locator('article', { hasText: 'Rewrite the note' }).last();
    await action.hover();
    await action.getByRole('button', { name: 'Restore files to here' }).click();
    const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
    await picker.waitFor({ timeout: 30_000 });
    await picker.getByText('2 files will change').waitFor();
    await picker.locator('.monaco-list-row', { hasText: 'Restore Files' }).getByText('2 files').waitFor();
    await picker.locator('.monaco-list-row', { hasText: 'note-e2e.txt' }).waitFor();
    await picker.locator('.monaco-list-row', { hasText: 'made-e2e.txt' }).waitFor();
    await wb.shot('restore-preview');
    // The diff of the note (checkpoint ↔ now), open while the restore runs.
    await picker.locator('.monaco-list-row', { hasText: 'note-e2e.txt' }).first().click();
    const diff = wb.page.locator('.monaco-diff-editor');
    await diff.locator('.modified .view-lines', { hasText: 'rewritten by the agent' }).waitFor();
    await picker.locator('.monaco-list-row', { hasText: 'Restore Files' }).first().click();
    await wb.page
      .getByText(/restored 2 files to this point/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(wb.workspaceDir, 'note-e2e.txt'), 'utf8'), 'the original note\n');
    assert.ok(!existsSync(join(wb.workspaceDir, 'made-e2e.txt')), 'the file the command made is gone');
    await wb.page
      .locator('.monaco-editor .view-lines', { hasText: 'the original note' })
      .first()
      .waitFor({ timeout: 30_000 });
    await chat
      .getByText(/Files restored to before: /)
      .first()
      .waitFor({ timeout: 30_000 });
    // The diff's "now" side follows the file: the agent's text is gone from it.
    await diff
      .locator('.modified .view-lines', { hasText: 'the original note' })
      .waitFor({ timeout: 30_000 });
    assert.equal(
      await diff.locator('.modified .view-lines', { hasText: 'rewritten by the agent' }).count(),
      0,
    );
    await wb.shot('restored');
  });

  it("the restore's own line undoes it", async () => {
    const chat = wb.chatFrame();
    const notice = chat.locator('article', { hasText: 'Files restored to before: ' }).last();
    // Undo shows on the restore's line without hover.
    await notice.getByRole('button', { name: /^Undo:/ }).click();
    const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
    await picker.getByText('2 files will change').waitFor({ timeout: 30_000 });
    await picker.locator('.monaco-list-row', { hasText: 'Restore Files' }).first().click();
    await wb.page
      .locator('.monaco-editor .view-lines', { hasText: 'rewritten by the agent' })
      .waitFor({ timeout: 30_000 });
    assert.equal(readFileSync(join(wb.workspaceDir, 'made-e2e.txt'), 'utf8'), 'made\n');
    await chat
      .getByText(/Restore undone/)
      .first()
      .waitFor({ timeout: 30_000 });
    await wb.shot('undone-from-the-chat');
  });

  it('reads right in Dark and High Contrast at a 300 px sidebar: no text under contrast', async () => {
    await setSidebarWidth(wb, 300);
    const chat = wb.chatFrame();
    const action = chat.locator('article', { hasText: 'Rewrite the note' }).last();
    for (const theme of ['Dark Modern', 'Dark High Contrast', 'Light Modern']) {
      await setTheme(wb, theme);
      await action.hover();
      await action.getByRole('button', { name: 'Restore files to here' }).waitFor();
      await wb.shot(`restore-button-${theme.replace(/\s+/g, '-').toLowerCase()}`);
      assert.deepEqual(await contrastViolations(chat), [], theme);
    }
  });

  it('marks a file the user changed after the agent as edited outside the agent, in each theme', async () => {
    writeFileSync(join(wb.workspaceDir, 'mine-e2e.txt'), 'written by the user\n');
    const chat = wb.chatFrame();
    const action = chat.locator('article', { hasText: 'Rewrite the note' }).last();
    for (const theme of ['Dark Modern', 'Dark High Contrast', 'Light Modern']) {
      await setTheme(wb, theme);
      await action.hover();
      await action.getByRole('button', { name: 'Restore files to here' }).click();
      const picker = wb.page.locator('.quick-input-widget', { hasText: 'Restore files to here' });
      await picker.getByText('3 files will change').waitFor({ timeout: 30_000 });
      const mine = picker.locator('.monaco-list-row', { hasText: 'mine-e2e.txt' });
      await mine.getByText('Edited outside the agent after this point').waitFor();
      const note = picker.locator('.monaco-list-row', { hasText: 'note-e2e.txt' });
      assert.equal(await note.getByText('Edited outside the agent').count(), 0, "the agent's file");
      await wb.shot(`restore-preview-edited-outside-${theme.replace(/\s+/g, '-').toLowerCase()}`);
      await wb.page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden' });
    }
    assert.equal(readFileSync(join(wb.workspaceDir, 'mine-e2e.txt'), 'utf8'), 'written by the user\n');
  });
});
