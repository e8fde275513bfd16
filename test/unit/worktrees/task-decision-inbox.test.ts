// The window's inbox of decisions the CLI left beside a task's log: appended oldest command first,
// each command's file removed once its decisions are in, a file that is no decision dropped, and a
// command whose append failed kept for the next look, never lost.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskDecision } from '../../../src/core/worktrees/task-decision';
import { TaskDecisionInbox } from '../../../src/host/node/worktrees/task-decision-inbox';
import { DECISIONS_DIR, queueTaskDecisions } from '../../../src/host/node/worktrees/task-decision-queue';

const decision = (decision: TaskDecision['decision'], path?: string): TaskDecision => ({
  decision,
  task: 't',
  branch: 'logbook/t',
  via: 'cli',
  ...(path ? { path } : {}),
});

describe('task decision inbox', () => {
  let log: string;
  beforeEach(() => (log = mkdtempSync(join(tmpdir(), 'decision-inbox-'))));
  afterEach(() => rmSync(log, { recursive: true, force: true }));

  it('appends in the order the commands left them, drops what is no decision, empties the folder', async () => {
    queueTaskDecisions(log, [decision('reject_file', 'a.txt'), decision('reject_hunk', 'b.txt')]);
    writeFileSync(join(log, DECISIONS_DIR, '000000000000000-forged.json'), '[{"decision":"merge_all"}]');
    await new Promise((r) => setTimeout(r, 5));
    queueTaskDecisions(log, [decision('discard')]);
    const appended: string[] = [];
    const inbox = new TaskDecisionInbox(
      log,
      async (d) => appended.push(`${d.decision} ${d.path ?? ''}`.trim()),
      (err) => assert.fail(String(err)),
    );
    try {
      await inbox.drain();
      assert.deepEqual(appended, ['reject_file a.txt', 'reject_hunk b.txt', 'discard']);
      assert.deepEqual(readdirSync(join(log, DECISIONS_DIR)), []);
    } finally {
      inbox.dispose();
    }
  });

  it('keeps a command whose append failed for the next look', async () => {
    queueTaskDecisions(log, [decision('apply')]);
    let fail = true;
    const appended: string[] = [];
    const errors: unknown[] = [];
    const inbox = new TaskDecisionInbox(
      log,
      async (d) => {
        if (fail) throw new Error('the log is closing');
        appended.push(d.decision);
      },
      (err) => errors.push(err),
    );
    try {
      await inbox.drain();
      assert.equal(errors.length, 1);
      assert.equal(
        readdirSync(join(log, DECISIONS_DIR)).length,
        1,
        'the decision went without being recorded',
      );
      fail = false;
      await inbox.drain();
      assert.deepEqual(appended, ['apply']);
      assert.deepEqual(readdirSync(join(log, DECISIONS_DIR)), []);
    } finally {
      inbox.dispose();
    }
  });
});
