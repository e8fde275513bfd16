import * as assert from 'node:assert/strict';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

describe('e2e: start an agent task from the command palette', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({ name: 'start-task' });
  });

  after(async () => {
    await wb?.close();
  });

  it('shows the Logbook view in the activity bar', async () => {
    await wb.shot('workbench');
    const item = wb.page.getByRole('tab', { name: /^Logbook/ });
    assert.equal(await item.count(), 1);
    assert.ok(await item.isVisible());
  });

  it('runs "Logbook: Start Agent Task", asks for the task and shows it in the chat panel', async () => {
    await wb.runCommand('Logbook: Start Agent Task');
    const box = wb.page.locator('.quick-input-widget .quick-input-box input');
    await wb.page.locator('.quick-input-widget', { hasText: 'What should the agent do?' }).waitFor();
    await wb.shot('task-prompt');
    await box.fill('Add a subtract function to src/math.js');
    await box.press('Enter');
    const message = wb.chatFrame().locator('.event.message.user .body');
    await message.first().waitFor({ timeout: 30_000 });
    assert.equal(await message.first().textContent(), 'Add a subtract function to src/math.js');
    const title = wb.chatFrame().locator('header .title');
    assert.equal(await title.textContent(), 'Add a subtract function to src/math.js');
    await wb.shot('task-in-chat');
  });
});
