import * as assert from 'node:assert/strict';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

const TASK = 'Run the tests, then tidy up';
const SECOND_TASK = 'Say hello';

describe('e2e: the chat panel drives a conversation end to end', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'chat-flow',
      // Ask for everything: in the default mode the sandbox and a checkpoint hold `npm test`, so it
      // would run without the question this test is about.
      settings: { 'logbook.confirmation.mode': 'always' },
      scenario: {
        name: 'e2e-chat-flow',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'Run the tests' },
            reply: {
              content: 'First I will run the tests.',
              toolCalls: [
                {
                  id: 'call_test',
                  name: 'terminal',
                  arguments: { command: 'npm test', security_risk: 'LOW', summary: 'Run the test suite' },
                },
              ],
              chunkSize: 5,
              delayMs: 15,
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'ok' },
            reply: {
              toolCalls: [
                {
                  id: 'call_clean',
                  name: 'terminal',
                  arguments: {
                    command: 'rm -rf node_modules && echo cleaned',
                    security_risk: 'HIGH',
                    summary: 'Delete node_modules',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'Keep node_modules' },
            reply: {
              content: 'Understood: I left node_modules alone. The tests pass.',
              chunkSize: 5,
              delayMs: 15,
            },
          },
          {
            match: { lastRole: 'user', lastContentIncludes: 'hello' },
            reply: { content: 'Hello from the second conversation.' },
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

  it('starts a task from the palette; the stream appears and the command waits for confirmation', async () => {
    await wb.startTask(TASK);
    const chat = wb.chatFrame();
    await chat.getByText('First I will run the tests.').first().waitFor({ timeout: 30_000 });
    await chat.getByRole('button', { name: 'Confirm' }).waitFor({ timeout: 30_000 });
    await chat.getByText('npm test').first().waitFor();
    await wb.shot('waiting-for-confirmation');
  });

  it('keeps the pending confirmation across a window reload', async () => {
    await wb.page.reload();
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    await wb.openLogbookView();
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Confirm' }).waitFor({ timeout: 60_000 });
    await chat.getByText('First I will run the tests.').first().waitFor();
    await wb.shot('reloaded-still-waiting');
  });

  it('Confirm runs the command in the integrated terminal and its output shows in the stream', async () => {
    const chat = wb.chatFrame();
    await chat.getByRole('button', { name: 'Confirm' }).click();
    await chat
      .getByText(/exit 0|exit code 0|Exit 0/i)
      .first()
      .waitFor({ timeout: 60_000 });
    await chat.getByText('Delete node_modules').first().waitFor({ timeout: 30_000 });
    // The command ran in a terminal named after the conversation.
    await wb.page.getByText(`Logbook: ${TASK}`).first().waitFor({ timeout: 30_000 });
    await wb.shot('confirmed-command-ran');
  });

  it('Reject with a reason: the agent reads it and adapts', async () => {
    const chat = wb.chatFrame();
    await chat
      .getByRole('button', { name: /^Reject/ })
      .first()
      .click();
    const reason = chat.getByPlaceholder('e.g. Run the unit tests only');
    await reason.fill('Keep node_modules');
    await wb.shot('reject-reason');
    await chat.getByRole('button', { name: 'Reject', exact: true }).click();
    await chat
      .getByText('Understood: I left node_modules alone. The tests pass.')
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByRole('button', { name: 'Confirm' }).count(), 0, 'the approval bar is gone');
    await wb.shot('rejected-and-adapted');
  });

  it('a second conversation, then the history opens the older one', async () => {
    await wb.startTask(SECOND_TASK);
    const chat = wb.chatFrame();
    await chat.getByText('Hello from the second conversation.').first().waitFor({ timeout: 30_000 });
    // The tree catches up a moment after the chat (its refreshes are debounced); a click while a
    // row is being re-rendered can be lost, so wait until it shows the finished second task.
    await wb.showConversations();
    await wb
      .conversationRows(SECOND_TASK)
      .filter({ hasText: 'finished' })
      .first()
      .waitFor({ timeout: 30_000 });
    await wb.shot('second-conversation');
    await wb.conversationRows(TASK).first().click();
    await chat
      .getByText('Understood: I left node_modules alone. The tests pass.')
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText('Hello from the second conversation.').count(), 0);
    await wb.shot('history-opened-older');
    assert.equal(wb.llm?.remainingTurns(), 0);
  });

  it('"Continue from here" forks the conversation at that event into a new one', async () => {
    const chat = wb.chatFrame();
    const firstAnswer = chat.locator('article', { hasText: 'First I will run the tests.' }).first();
    await firstAnswer.hover();
    await firstAnswer.getByRole('button', { name: 'Continue from here' }).click();
    // The fork is active: it has the first answer but not what came after it.
    await chat.getByText('First I will run the tests.').first().waitFor({ timeout: 30_000 });
    await chat.getByText('Continued from an earlier conversation').first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText('Understood: I left node_modules alone. The tests pass.').count(), 0);
    await wb.conversationRows(TASK).nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await wb.conversationRows(TASK).count(), 2, 'the fork is listed');
    await wb.shot('forked');
  });

  it('renames and deletes a conversation from its context menu in the Conversations view', async () => {
    const fork = wb.conversationRows(`${TASK} (continued)`).first();
    await fork.waitFor({ timeout: 30_000 });
    await wb.contextMenu(fork, 'Rename Conversation');
    await wb.page.locator('.quick-input-widget', { hasText: 'Logbook: Rename Conversation' }).waitFor();
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    await box.fill('Fork without cleanup');
    await box.press('Enter');
    const renamed = wb.conversationRows('Fork without cleanup').first();
    await renamed.waitFor({ timeout: 30_000 });
    // The chat shows the fork, so its header follows the new title.
    await wb.chatFrame().getByText('Fork without cleanup').first().waitFor({ timeout: 30_000 });
    await wb.shot('renamed');

    await wb.contextMenu(renamed, 'Delete Conversation');
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'Fork without cleanup' });
    await dialog.waitFor({ timeout: 30_000 });
    await wb.shot('delete-asks-first');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await renamed.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await wb.conversationRows(TASK).count(), 1, 'the original conversation stays');
    await wb.shot('deleted');
  });
});
