// Sub-agents in the real workbench, at a 300 px sidebar: the main agent delegates to the built-in
// explorer; its card nests the explorer (agent, branch, state, cost, task), collapsed until opened,
// with the explorer's waiting read and its own Confirm / Reject (screenshots in Light, Dark and High
// Contrast). Confirming it from the card lets the child finish and its answer reach the parent.
import * as assert from 'node:assert/strict';
import {
  openWorkbench,
  screenshotRoot,
  setSidebarWidth,
  setTheme,
  type Workbench,
} from './support/workbench';
import {
  delegateToExplorerTurns,
  EXPLORER_TASK,
  PARENT_ANSWER,
} from '../support/scenarios/delegate-to-explorer';

describe('e2e: a delegated agent nested under its delegation', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'sub-agents',
      settings: { 'logbook.confirmation.mode': 'risky', 'workbench.colorTheme': 'Default Light Modern' },
      scenario: {
        name: 'e2e-sub-agents',
        turns: delegateToExplorerTurns(),
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

  it('the delegation card nests the explorer, collapsed, with its own Confirm', async () => {
    const chat = wb.chatFrame();
    const box = chat.getByRole('textbox', { name: 'Message to the agent' });
    await box.waitFor({ timeout: 60_000 });
    await box.fill('Where is the host name kept?');
    await box.press('Enter');
    const agents = chat.getByRole('list', { name: 'Delegated agents' });
    await agents.waitFor({ timeout: 60_000 });
    const child = agents.locator('li[data-branch="main.explore.1"]');
    await child.getByRole('button', { name: 'Confirm main.explore.1' }).waitFor({ timeout: 60_000 });
    const head = child.locator('.delegated-head');
    assert.equal(await head.getAttribute('aria-expanded'), 'false', 'collapsed by default');
    assert.match((await head.innerText()).replace(/\s+/g, ' '), /explore main\.explore\.1 .*\$/);
    // The explorer names no model of its own: it runs on the parent's, and the card says which.
    assert.equal(await child.locator('.delegated-model').innerText(), 'scripted-model');
    // At 300 px the branch has a line of its own under the name: read whole, not cut to "main…".
    const branch = child.locator('.delegated-branch');
    assert.equal(
      await branch.evaluate((el) => el.scrollWidth > el.clientWidth),
      false,
      'the branch is whole',
    );
    assert.equal(await child.locator('.delegated-task').innerText(), EXPLORER_TASK);
    // The agents stand for the call's arguments: its raw JSON is not shown again above them.
    assert.equal(await chat.getByText('agent_types').count(), 0);
    // The parent's own approval bar stays away: what waits is the child's.
    assert.equal(await chat.getByRole('region', { name: 'Approval needed' }).count(), 0);
    await head.click();
    assert.equal(await head.getAttribute('aria-expanded'), 'true');
    const step = child.locator('.delegated-step[data-outcome="waiting"]');
    await step.waitFor({ timeout: 10_000 });
    assert.match(await step.innerText(), /file_editor/);
    for (const theme of ['Light Modern', 'Dark Modern', 'Dark High Contrast']) {
      await setTheme(wb, theme);
      await child.scrollIntoViewIfNeeded();
      await wb.shot(`sub-agent-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
  });

  it("Confirm in the card runs the child's action; its answer reaches the parent", async () => {
    const chat = wb.chatFrame();
    const child = chat.locator('li[data-branch="main.explore.1"]');
    await child.getByRole('button', { name: 'Confirm main.explore.1' }).click();
    await chat.getByText(PARENT_ANSWER).first().waitFor({ timeout: 60_000 });
    await child.locator('.delegated-step[data-outcome="done"]').first().waitFor({ timeout: 10_000 });
    await child.locator('.delegated-status', { hasText: 'Finished' }).waitFor({ timeout: 10_000 });
    assert.equal(await child.getByRole('button', { name: 'Confirm main.explore.1' }).count(), 0);
    await wb.shot('sub-agent-finished');
    assert.equal(wb.llm?.remainingTurns(), 0);
  });
});
