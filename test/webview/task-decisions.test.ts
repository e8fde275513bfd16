// A worktree task's decisions in the chat: each rejection, the apply and the discard recorded in the
// task's log is a line in the words the record keeps (what was decided, and where: at the terminal
// or in the editor), never a raw state change.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { EventJson, ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, SHOTS, startHarness } from './support';

const decision = (id: string, value: object): EventJson => ({
  kind: 'ConversationStateUpdateEvent',
  id,
  source: 'user',
  key: 'task_decision',
  value: { task: 'login-fix', branch: 'logbook/login-fix', ...value },
});

function conversation(): ViewEvent[] {
  return [
    userMessage(eid(1), 'Fix the failing login test'),
    decision(eid(2), {
      decision: 'reject_file',
      via: 'editor',
      path: 'src/old.ts',
      summary: 'You rejected every change to src/old.ts in the editor (commit abc1234567)',
    }),
    decision(eid(3), {
      decision: 'discard',
      via: 'cli',
      summary:
        'You discarded task login-fix at the terminal: its worktree and branch are removed, this log is kept',
    }),
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: a worktree task’s decisions in the chat', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 900 })));
  after(async () => h?.close());

  it('shows each decision in its words, and a discarded task read-only', async () => {
    const p = await Panel.open(h, { theme: 'dark' });
    await p.showConversation(conversation(), makeHeader({ status: 'finished', readOnly: true }));
    const text = await p.page.locator('main').innerText();
    assert.match(text, /You rejected every change to src\/old\.ts in the editor \(commit abc1234567\)/);
    assert.match(text, /You discarded task login-fix at the terminal: its worktree and branch are removed/);
    assert.doesNotMatch(text, /State: task_decision/);
    await p.page.screenshot({ path: join(SHOTS, 'task-decisions-dark.png'), fullPage: true });
    assert.deepEqual(p.errors, []);
  });
});
