// Worktree tasks over a window reload (issue 43), in real VS Code: before it, one task finishes
// and is shown in the chat, another waits for Confirm; then `workbench.action.reloadWindow`. The
// suite runs again in the new extension host (the `reload` profile, test/host/run.mjs), where the
// Tasks view lists both, the chat shows the finished task's conversation with its history, and the
// waiting one shows its confirmation, which Confirm answers. A file in the workspace says which half
// runs; the tasks live where the window's environment says (LOGBOOK_WORKTREES_DIR, set by the profile
// outside /tmp, which the sandbox replaces).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ConversationsTree } from '../../../src/host/vscode/conversations/conversations-tree';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { type TaskNode, TasksTree } from '../../../src/host/vscode/tasks/tasks-tree';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, untilValue, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
const FILE = 'reload-target.txt';
const MARK = '.task-reload.json';

const finishTurn = {
  match: { lastRole: 'tool' as const },
  reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
};
/** The task whose message names `tag` rewrites `old` of FILE to `text`. */
const editTurn = (tag: string, old: string, text: string) => ({
  match: { lastRole: 'user' as const, lastContentIncludes: tag },
  reply: {
    toolCalls: [
      {
        id: 'call_edit',
        name: 'file_editor',
        arguments: { command: 'str_replace', path: FILE, old_str: old, new_str: text, security_risk: 'LOW' },
      },
    ],
  },
});

interface Before {
  done: string;
  waits: string;
}

describe('worktree tasks over a window reload', function () {
  const root = workspaceRoot();
  const mark = join(root, MARK);
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  let llm: ScriptedLlm | undefined;

  async function start(name: string, text: string) {
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: text, name, carry: false },
    );
    assert.equal(started?.name, name, `task ${name} did not start`);
    const session = await service.session(started.id);
    const pending = await untilValue(
      `task ${name}'s edit to wait for Confirm`,
      () => session.conversation.awaitingConfirmation()[0],
      60_000,
    );
    return { service, id: started.id, session, actionId: pending.id };
  }

  if (!existsSync(mark)) {
    it('before the reload: one task finished and shown in the chat, one waiting for Confirm', async function () {
      // The reload ends this extension host: past it, the suite's second half reports.
      this.timeout(240_000);
      assert.ok(process.env.LOGBOOK_WORKTREES_DIR, 'the reload profile names where tasks live');
      assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
      writeFileSync(join(root, FILE), 'line 1\nline 2\n');
      git(root, 'init', '--quiet', '--initial-branch=main');
      git(root, 'add', '--all');
      git(root, 'commit', '--quiet', '-m', 'first');
      await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
      llm = await scriptedModel({
        name: 'reload-before',
        turns: [
          editTurn('(done)', 'line 1\n', 'line 1 by done\n'),
          finishTurn,
          editTurn('(waits)', 'line 2\n', 'line 2 by waits\n'),
        ],
      });
      const done = await start('done', 'rewrite line 1 (done)');
      await done.service.approve(done.id, [done.actionId]);
      assert.equal(await done.session.settled(), 'finished');
      const waits = await start('waits', 'rewrite line 2 (waits)');
      // The finished task is what the chat shows when the window goes.
      await vscode.commands.executeCommand('logbook.tasks.openConversation', 'done');
      assert.equal(done.service.activeId, done.id);
      writeFileSync(mark, JSON.stringify({ done: done.id, waits: waits.id } satisfies Before));
      await vscode.commands.executeCommand('workbench.action.reloadWindow');
      await new Promise(() => undefined);
    });
    return;
  }

  describe('after the reload', function () {
    this.timeout(180_000);
    const before = JSON.parse(readFileSync(mark, 'utf8')) as Before;

    after(async () => {
      await llm?.close();
      await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
      rmSync(mark, { force: true });
      rmSync(join(root, '.git'), { recursive: true, force: true });
      rmSync(join(root, FILE), { force: true });
    });

    it('the Tasks view lists both tasks', async () => {
      const rows = (await new TasksTree().getChildren()) as TaskNode[];
      assert.deepEqual(
        rows.map((r) => [r.record.name, r.facts.status, r.facts.waiting_for_you]),
        [
          ['waits', 'waiting', true],
          ['done', 'finished', true],
        ],
      );
    });

    it("the chat shows the finished task's conversation again, with its history", async () => {
      const { service } = await logbook();
      assert.equal(service.activeId, before.done, 'the chat does not show the task it showed');
      const session = await service.session(before.done);
      assert.equal(session.dir, (await taskPlace()).store.get('done').log);
      assert.deepEqual(service.header(before.done)?.task, { name: 'done', branch: 'logbook/done' });
      assert.equal(session.conversation.status, 'finished');
      const events = await session.conversation.events();
      assert.ok(
        events.some((e) => e.kind === 'ObservationEvent' && e.tool_name === 'file_editor'),
        "the task's history is not there",
      );
      // Both are in the Conversations view, marked as tasks.
      const tree = new ConversationsTree(service);
      const rows = await tree.getChildren();
      for (const id of [before.done, before.waits]) {
        const row = rows.find((r) => 'id' in r && r.id === id);
        assert.ok(row, `conversation ${id} is not in the Conversations view`);
        assert.equal((tree.getTreeItem(row).iconPath as vscode.ThemeIcon).id, 'git-branch');
      }
    });

    it('the task that waited shows its confirmation, and Confirm answers it', async () => {
      llm = await scriptedModel({ name: 'reload-after', turns: [finishTurn] });
      const { service } = await logbook();
      const id = await vscode.commands.executeCommand<string>('logbook.tasks.openConversation', 'waits');
      assert.equal(id, before.waits);
      const session = await service.session(before.waits);
      assert.equal(session.readOnly, false, 'the reloaded window cannot write the task');
      const pending = session.conversation.awaitingConfirmation()[0];
      assert.ok(pending, 'the confirmation is gone');
      await service.approve(before.waits, [pending.id]);
      assert.equal(await session.settled(), 'finished');
      const record = (await taskPlace()).store.get('waits');
      assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), 'line 1\nline 2 by waits\n');
      assert.equal(readFileSync(join(root, FILE), 'utf8'), 'line 1\nline 2\n', 'the main tree changed');
    });
  });
});
