// Continue from here on a row of a worktree task's conversation says what it does there: a new
// task, in a worktree of its own (a window conversation's says only "continue from here").
import assert from 'node:assert/strict';
import type { ViewEvent } from '../../src/protocol/messages';
import { eid, makeHeader, userMessage } from './harness/events';
import { type Harness, Panel, startHarness } from './support';

const events = (): ViewEvent[] => [{ seq: 0, event: userMessage(eid(1), 'Fix the failing login test') }];

describe('webview: Continue from here in a worktree task’s conversation', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => (h = await startHarness({ width: 300, height: 600 })));
  after(async () => h?.close());

  for (const task of [true, false]) {
    it(
      task ? 'names the new task it makes' : 'in a window conversation, says only where it continues',
      async () => {
        const p = await Panel.open(h);
        const header = makeHeader({
          status: 'finished',
          ...(task ? { task: { name: 'login-fix', branch: 'logbook/login-fix' } } : {}),
        });
        await p.showConversation(events(), header);
        const row = p.row('MessageEvent');
        await row.hover();
        await p.settle();
        const fork = row.getByRole('button', { name: 'Continue from here' });
        const title = await fork.getAttribute('title');
        if (task) assert.equal(title, 'Fork: continue from here as a new task, in a worktree of its own');
        else assert.equal(title, 'Fork: continue from here');
        assert.deepEqual(p.errors, []);
        await p.page.close();
      },
    );
  }
});
