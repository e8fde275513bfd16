// Signed conversations in the real workbench at 300 px: the Conversations view says "✓ verified"
// once a conversation was checked on opening, and after a record is rewritten on disk (checksum
// recomputed, as an attacker would) Logbook: Verify Conversation turns it to "✗ broken" and the
// chat marks the event. Screenshots of Light, Dark and High Contrast go under test-results/.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeRecord } from '../../src/core/log/record-format';
import { startScriptedLlm, type ScriptedLlm } from '../support/llm-server';
import {
  openWorkbench,
  screenshotRoot,
  type Workbench,
  setSidebarWidth,
  setTheme,
} from './support/workbench';

const THEMES = ['Light Modern', 'Dark Modern', 'Dark High Contrast'];
const TASK = 'Say hello signed';

/** The folders under `root` that hold a signatures.log (the signed conversations). */
function signedDirs(root: string, depth = 0): string[] {
  if (depth > 8) return [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  if (names.includes('signatures.log') && names.includes('segments')) return [root];
  return names.flatMap((n) => {
    const p = join(root, n);
    try {
      return statSync(p).isDirectory() && n !== 'node_modules' ? signedDirs(p, depth + 1) : [];
    } catch {
      return [];
    }
  });
}

describe('e2e: signature badges', function () {
  let wb: Workbench;
  let llm: ScriptedLlm;

  before(async function () {
    console.log(`    screenshots: ${screenshotRoot}`);
    llm = await startScriptedLlm({
      scenario: {
        name: 'signed',
        turns: [
          {
            match: { lastRole: 'user' },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Hello.' } }] },
          },
        ],
      },
    });
    wb = await openWorkbench({
      name: 'signature-badges',
      settings: {
        'logbook.model.baseURL': llm.baseUrl,
        'logbook.model.name': 'scripted-model',
        'workbench.colorTheme': 'Default Light Modern',
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
    await llm?.close();
  });

  it('shows verified in the Conversations view, then broken with the event marked after a rewrite', async () => {
    await wb.startTask(TASK);
    const chat = wb.chatFrame();
    await chat.getByText('Hello.').first().waitFor({ timeout: 30_000 });
    await wb.showConversations();
    const row = wb.conversationRows(TASK).first();
    await row.locator('.label-description', { hasText: '✓ verified' }).waitFor({ timeout: 20_000 });
    await chat.locator('.badge.signature', { hasText: 'Verified' }).waitFor();
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`verified-${theme.toLowerCase().replace(/\W+/g, '-')}`);
    }
    await setTheme(wb, THEMES[0]!);

    // Rewrite the user's message on disk, checksum recomputed.
    const dirs = signedDirs(dirname(wb.workspaceDir));
    assert.equal(dirs.length, 1, `one signed conversation: ${dirs.join(', ')}`);
    const segment = join(dirs[0]!, 'segments', '000001.log');
    const lines = readFileSync(segment, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(TASK) && l.includes('"MessageEvent"'));
    assert.ok(at >= 0, 'the user message is in the log');
    const [, seq, , ...rest] = lines[at]!.split(' ');
    const json = rest.join(' ').replace(TASK, 'Say hello forged');
    lines[at] = encodeRecord(Number(seq), json).toString('utf8').replace(/\n$/, '');
    writeFileSync(segment, lines.join('\n'));

    await wb.runCommand('Logbook: Verify Conversation');
    await row.locator('.label-description', { hasText: '✗ broken' }).waitFor({ timeout: 20_000 });
    await chat.locator('.badge.signature', { hasText: 'Broken' }).waitFor();
    const marked = chat.locator('article.row-tampered');
    await marked.waitFor({ timeout: 10_000 });
    assert.equal(await marked.getAttribute('data-seq'), seq);
    assert.match(await marked.locator('.tamper-note').innerText(), /Not as signed: content changed/);
    for (const theme of THEMES) {
      await setTheme(wb, theme);
      await wb.shot(`broken-${theme.toLowerCase().replace(/\W+/g, '-')}`);
    }
  });
});
