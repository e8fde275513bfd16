// Plan mode in the real workbench, at a 300 px sidebar: choose Plan in the composer, send a task,
// get the plan as a checklist (screenshots in Light, Dark and High Contrast), approve it from the
// chat, and the same conversation carries it out in act mode.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';

const create = {
  id: 'call_create',
  name: 'file_editor',
  arguments: {
    command: 'create',
    path: 'PLAN_NOTES.md',
    file_text: '# Notes\n',
    security_risk: 'LOW',
    summary: 'Write the notes file',
  },
};

describe('e2e: plan, then act, from the chat', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'plan-mode',
      settings: { 'logbook.confirmation.mode': 'risky', 'workbench.colorTheme': 'Default Light Modern' },
      scenario: {
        name: 'e2e-plan-mode',
        turns: [
          { match: { lastRole: 'user', lastContentIncludes: 'notes file' }, reply: { toolCalls: [create] } },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
            reply: {
              toolCalls: [
                {
                  id: 'call_plan',
                  name: 'task_tracker',
                  arguments: {
                    command: 'plan',
                    task_list: [
                      { title: 'Read the README', notes: 'find what the notes should cover', status: 'done' },
                      { title: 'Write PLAN_NOTES.md', notes: 'one heading for now', status: 'todo' },
                      { title: 'Check the file renders', notes: '', status: 'todo' },
                    ],
                  },
                },
              ],
            },
          },
          { match: { lastRole: 'tool' }, reply: { content: 'Here is my plan; approve it to go ahead.' } },
          {
            match: { lastRole: 'user', lastContentIncludes: 'Go ahead with this plan' },
            reply: { toolCalls: [create] },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'PLAN_NOTES' },
            reply: {
              toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Wrote the notes.' } }],
            },
          },
        ],
      },
    });
    await wb.openLogbookView();
    await setSidebarWidth(wb, 300);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
  });

  after(async () => {
    await wb?.close();
  });

  it('Plan in the composer: the task gets a checklist and nothing is written', async () => {
    const chat = wb.chatFrame();
    const plan = chat.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' });
    await plan.waitFor({ timeout: 60_000 });
    await plan.click();
    assert.equal(await plan.getAttribute('aria-pressed'), 'true');
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.fill('Add a notes file for the plan');
    await box.press('Enter');
    await chat.getByRole('button', { name: 'Approve plan' }).waitFor({ timeout: 60_000 });
    await chat.getByText('Here is my plan; approve it to go ahead.').first().waitFor({ timeout: 30_000 });
    assert.ok(!existsSync(join(wb.workspaceDir, 'PLAN_NOTES.md')), 'plan mode wrote nothing');
    // The status bar says what the chat header says: the plan waits, the task is not finished.
    const statusItem = wb.page.locator('.statusbar-item', { hasText: /awaits approval|finished|idle/ });
    await wb.page
      .locator('.statusbar-item', { hasText: 'plan awaits approval' })
      .waitFor({ timeout: 30_000 });
    assert.equal(await statusItem.filter({ hasText: 'finished' }).count(), 0);
    assert.match(await statusItem.first().innerText(), / in \/ .* out/);
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast']) {
      await setTheme(wb, theme);
      await chat.locator('.plan-card').last().scrollIntoViewIfNeeded();
      await wb.shot(`plan-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });

  it('Approve plan: the same conversation switches to act mode and carries it out', async () => {
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Approve plan' }).click();
    const act = chat.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Act' });
    await chat.getByText('Wrote the notes.').first().waitFor({ timeout: 60_000 });
    assert.equal(await act.getAttribute('aria-pressed'), 'true');
    assert.ok(existsSync(join(wb.workspaceDir, 'PLAN_NOTES.md')), 'act mode wrote the file');
    assert.equal(await chat.getByRole('button', { name: 'Approve plan' }).count(), 0);
    await wb.shot('plan-approved-act');
    assert.equal(wb.llm?.remainingTurns(), 0);
  });
});
