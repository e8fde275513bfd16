// A worktree task's decisions in the chat: each rejection, the apply and the discard recorded in the
// task's log is a line saying what was decided and where (at the terminal or in the editor); once the
// log says the task was discarded, the composer takes no message and says why.
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

function conversation(discarded: boolean): ViewEvent[] {
  return [
    userMessage(eid(1), 'Fix the failing login test'),
    decision(eid(2), { decision: 'reject_hunk', via: 'cli', path: 'src/login.ts', hunk: '@@ -3,2 +3,4 @@' }),
    decision(eid(3), { decision: 'reject_file', via: 'editor', path: 'src/old.ts', commit: 'abc1234567' }),
    decision(eid(4), { decision: 'apply', via: 'cli', outcome: 'merged', files: ['src/login.ts'] }),
    ...(discarded ? [decision(eid(5), { decision: 'discard', via: 'cli' })] : []),
  ].map((event, seq) => ({ seq, event }));
}

describe('webview: a worktree task’s decisions in the chat', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 900 })));
  after(async () => h?.close());

  it('shows each decision and where it was taken; the composer stays open until a discard', async () => {
    const p = await Panel.open(h, { theme: 'dark' });
    await p.showConversation(conversation(false), makeHeader({ status: 'finished' }));
    const text = await p.page.locator('main').innerText();
    assert.match(text, /You rejected a hunk of src\/login\.ts \(at the terminal\)/);
    assert.match(text, /You rejected every change to src\/old\.ts \(in the editor\)/);
    assert.match(text, /You applied logbook\/login-fix to your working tree \(at the terminal\)/);
    assert.doesNotMatch(text, /State: task_decision/);
    assert.equal(await p.page.locator('textarea').isDisabled(), false);
    assert.deepEqual(p.errors, []);
  });

  it('after a discard the chat says so and the composer takes no message', async () => {
    const p = await Panel.open(h, { theme: 'dark' });
    await p.showConversation(conversation(true), makeHeader({ status: 'finished' }));
    const text = await p.page.locator('main').innerText();
    assert.match(text, /You discarded this task \(at the terminal\): its worktree and branch are gone/);
    const input = p.page.locator('textarea');
    assert.equal(await input.isDisabled(), true, 'the composer still takes a message');
    assert.match((await input.getAttribute('placeholder')) ?? '', /This task was discarded/);
    await p.page.screenshot({ path: join(SHOTS, 'task-discarded-dark.png'), fullPage: true });
    assert.deepEqual(p.errors, []);
  });
});
