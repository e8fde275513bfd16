import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openWorkbench, screenshotRoot, type Workbench } from './support/workbench';

const TASK = 'Add a subtract function to src/math.js';

describe('e2e: start an agent task from the command palette', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'start-task',
      scenario: {
        name: 'e2e-start-task',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'subtract' },
            reply: {
              content: 'I will add subtract() next to add().',
              toolCalls: [
                {
                  id: 'call_edit',
                  name: 'file_editor',
                  arguments: {
                    command: 'str_replace',
                    path: 'src/math.js',
                    old_str: 'module.exports = { add };',
                    new_str:
                      'function subtract(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add, subtract };',
                    security_risk: 'LOW',
                    summary: 'Add subtract() to math.js',
                  },
                },
              ],
              chunkSize: 4,
              delayMs: 20,
            },
          },
          {
            match: { lastRole: 'tool' },
            reply: { content: 'Done: src/math.js now exports subtract().', chunkSize: 4, delayMs: 20 },
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

  it('shows the Logbook view in the activity bar', async () => {
    await wb.shot('workbench');
    const item = wb.page.getByRole('tab', { name: /^Logbook/ });
    assert.equal(await item.count(), 1);
    assert.ok(await item.isVisible());
  });

  it('runs "Logbook: Start Agent Task" from the palette; the agent edits the file and the chat shows every step', async () => {
    await wb.startTask(TASK, () => wb.shot('task-prompt'));
    const chat = wb.chatFrame();
    await chat.getByText(TASK, { exact: true }).first().waitFor({ timeout: 30_000 });
    await chat.getByText('Done: src/math.js now exports subtract().').first().waitFor({ timeout: 30_000 });
    await chat.getByText('Add subtract() to math.js').first().waitFor({ timeout: 10_000 });
    await wb.shot('task-finished');
    assert.match(readFileSync(join(wb.workspaceDir, 'src', 'math.js'), 'utf8'), /function subtract/);
    assert.equal(wb.llm?.remainingTurns(), 0);
  });
});
