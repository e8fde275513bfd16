// What a new user meets after `npm start` without a model: the demo, twice in a row from a fresh
// start (the second start must not find the first run's edit), a rejection it answers without
// claiming the edit, and a second task in the same window that gets a short, useful reply.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_TASK } from '../../src/host/node/demo-model/demo-model';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

// In the default mode the sandbox and a checkpoint hold all the demo does, so it would run without
// a question. Without checkpoints nothing is known to be undoable, and the default mode asks as the
// walk-through of Confirm and Reject shows.
const ASK_ALL = { 'logbook.checkpoints.enabled': false };

describe('e2e: the npm start demo, run again from a fresh start', function () {
  // One run folder for both starts, as `npm start` reuses .vscode-test/start.
  const runDir = join(mkdtempSync(join(tmpdir(), 'logbook-demo-')), 'start');
  let wb: Workbench | undefined;

  before(() => console.log(`    screenshots: ${screenshotRoot}`));
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.shot(`FAILED-${this.currentTest.title.slice(0, 40)}`);
    await wb?.close();
    wb = undefined;
  });
  after(() => rmSync(join(runDir, '..'), { recursive: true, force: true }));

  /** Confirms the pending action whose approval bar names `what`, so a slow host cannot make the test confirm the wrong one. */
  async function confirmNext(w: Workbench, what: string): Promise<void> {
    const bar = w.chatFrame().locator('section.approval', { hasText: what });
    const confirm = bar.getByRole('button', { name: 'Confirm' });
    await confirm.waitFor({ timeout: 60_000 });
    await confirm.click();
    await bar.waitFor({ state: 'hidden', timeout: 30_000 });
  }

  it('first start: the walkthrough runs the tests, edits on Confirm and finishes', async () => {
    wb = await openWorkbench({ name: 'demo-first-start', sampleRunDir: runDir, settings: ASK_ALL });
    await wb.startTask(DEMO_TASK);
    await confirmNext(wb, 'npm test');
    await confirmNext(wb, 'Add subtract() to src/math.js');
    const chat = wb.chatFrame();
    await chat
      .getByText(/now exports subtract/)
      .first()
      .waitFor({ timeout: 60_000 });
    assert.match(readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'), /function subtract/);
    await wb.shot('walkthrough-finished');

    // Installed as `npm start` installs it, the extension gets its own API: its notifications
    // name it as their source (not "Null Extension Description").
    await wb.runCommand('Logbook: Verify Conversation');
    // The notification's row names its source in its accessible name ("…, source: X, notification").
    const row = wb.page.locator('.notification-toast [aria-label*="verified"]').first();
    await row.waitFor({ timeout: 30_000 });
    assert.match((await row.getAttribute('aria-label')) ?? '', /, source: Logbook, notification$/);

    // A second task in the same window: a short reply about what the demo shows, no script end.
    await wb.startTask('Now write a README');
    await chat
      .getByText(/no script for "Now write a README"/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText(/script has ended/).count(), 0);
    await wb.shot('second-task');
  });

  it('second start: a fresh workspace; a rejected edit is answered, not claimed', async () => {
    wb = await openWorkbench({ name: 'demo-second-start', sampleRunDir: runDir, settings: ASK_ALL });
    assert.doesNotMatch(
      readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'),
      /subtract/,
      'the workspace starts fresh',
    );
    await wb.startTask(DEMO_TASK);
    await confirmNext(wb, 'npm test');
    const chat = wb.chatFrame();
    await chat.getByText("I'll add a subtract function next to add().").first().waitFor({ timeout: 60_000 });
    await chat.getByRole('button', { name: 'Confirm' }).waitFor({ timeout: 60_000 });
    await chat.getByRole('button', { name: /^Reject/ }).click();
    await chat.getByPlaceholder('e.g. Run the unit tests only').fill('Name it minus instead');
    await chat.getByRole('button', { name: 'Reject', exact: true }).click();
    await chat
      .getByText(/I left src\/math\.js unchanged/)
      .first()
      .waitFor({ timeout: 30_000 });
    await chat
      .getByText(/Name it minus instead/)
      .first()
      .waitFor();
    assert.equal(await chat.getByText(/now exports subtract/).count(), 0, 'the edit is not claimed');
    assert.doesNotMatch(readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'), /subtract/);
    await wb.shot('rejected-and-answered');
  });

  it('plan mode from the empty chat: the plan says it is the demo, Approve plan carries it out', async () => {
    wb = await openWorkbench({ name: 'demo-plan-then-act', sampleRunDir: runDir, settings: ASK_ALL });
    await wb.openLogbookView();
    const chat = wb.chatFrame();
    await chat.getByRole('heading', { name: 'A demo model answers here' }).waitFor({ timeout: 60_000 });
    await chat.getByRole('group', { name: 'Agent mode' }).getByRole('button', { name: 'Plan' }).click();
    await chat.getByRole('button', { name: DEMO_TASK }).click();
    const approve = chat.getByRole('button', { name: 'Approve plan' });
    await approve.waitFor({ timeout: 60_000 });
    // The plan card carries the demo's opening words, and nothing runs while planning.
    await chat
      .locator('.plan-card')
      .getByText(/demo model/)
      .first()
      .waitFor();
    await chat
      .getByText(/Choose \*?\*?Approve plan|Approve plan\*?\*? on the plan/)
      .first()
      .waitFor({ timeout: 30_000 });
    assert.equal(await chat.locator('.plan-item[data-status="in_progress"]').count(), 0);
    assert.equal(await chat.getByText('Plan awaits approval').count(), 1, 'the header does not say Finished');
    await wb.shot('planned');

    await approve.click();
    // The go-ahead in the user's words; no mode or tool names.
    await chat.getByText('Go ahead with this plan:').first().waitFor({ timeout: 30_000 });
    assert.equal(await chat.getByText(/act mode now|task_tracker/).count(), 0);
    await confirmNext(wb, 'npm test');
    await confirmNext(wb, 'Add subtract() to src/math.js');
    await chat
      .getByText(/now exports subtract/)
      .first()
      .waitFor({ timeout: 60_000 });
    assert.match(readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'), /function subtract/);
    assert.equal(await chat.getByText('Status: Waiting for approval').count(), 0, 'no stale status line');
    assert.equal(await chat.locator('.plan-item[data-status="in_progress"]').count(), 0);
    await wb.shot('approved-and-done');

    // "Explain" is answered, not taken for the subtract script.
    await wb.startTask('Explain @src/math.js');
    await chat
      .getByText(/defines `?add\(a, b\)`?/)
      .first()
      .waitFor({ timeout: 60_000 });
    await wb.shot('explained');
  });
});
