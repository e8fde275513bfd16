// An MCP server from the settings, driven through the real workbench: the agent calls its tool
// without annotations, the chat asks, the user clicks Confirm, the result shows in the card; a
// read-only tool's image result shows too.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { openWorkbench, screenshotRoot, setSidebarWidth, type Workbench } from './support/workbench';

const FAULT_SERVER = join(__dirname, '..', 'support', 'mcp-fault-server.mjs');

describe('e2e: an MCP tool call confirmed from the chat', function () {
  let wb: Workbench;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    wb = await openWorkbench({
      name: 'mcp',
      settings: {
        'logbook.confirmation.mode': 'risky',
        'logbook.mcp.servers': { notes: { command: process.execPath, args: [FAULT_SERVER] } },
      },
      scenario: {
        name: 'e2e-mcp',
        turns: [
          {
            match: { lastRole: 'user', lastContentIncludes: 'Take a note' },
            reply: {
              toolCalls: [
                {
                  id: 'call_note',
                  name: 'plain',
                  arguments: { note: 'buy milk', security_risk: 'LOW', summary: 'Write the note' },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool', toolResultIncludes: 'noted: buy milk' },
            reply: { toolCalls: [{ id: 'call_shout', name: 'shout', arguments: { text: 'done' } }] },
          },
          {
            // shout's image follows its result as a user message (tool messages take text only).
            match: { lastRole: 'user', lastContentIncludes: 'returned by the shout call' },
            reply: { content: 'The note is written.' },
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

  it('asks before the unannotated tool; Confirm runs it and the results show in the cards', async () => {
    await setSidebarWidth(wb, 300);
    await wb.startTask('Take a note');
    const chat = wb.chatFrame();
    const confirm = chat.getByRole('button', { name: 'Confirm' });
    await confirm.waitFor({ timeout: 60_000 });
    await chat.getByText('"note": "buy milk"').first().waitFor();
    await wb.shot('mcp-waiting');
    await confirm.click();
    await chat.getByText('noted: buy milk').first().waitFor({ timeout: 30_000 });
    await chat.getByText('The note is written.').first().waitFor({ timeout: 30_000 });
    const image = chat.locator('.result-images img').first();
    await image.waitFor({ timeout: 10_000 });
    assert.equal(await image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth), 1);
    assert.equal(
      await chat.getByRole('button', { name: 'Confirm' }).count(),
      0,
      'the read-only tool did not ask',
    );
    await wb.shot('mcp-finished');
  });
});
