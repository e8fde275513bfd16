// A worktree task's conversation where a user looks for it (issue 43), in real VS Code: listed in
// the Conversations view beside the window's own, marked as a task (its branch icon and branch),
// opened as the Tasks view's row opens it (the same session in the chat, not a second one), with
// Delete refused (its log is kept with the task) and Verify reading the task's own log; and the
// multi-file diffs of a task's review named after the task, not "Agent Changes".
// The window's folder is made a git repository for this suite only (its .git is removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ConversationsTree } from '../../../src/host/vscode/conversations/conversations-tree';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { type TaskNode, TasksTree } from '../../../src/host/vscode/tasks/tasks-tree';
import { startScriptedLlm, type ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel, until, untilValue, workspaceRoot, repositoryForTasks } from './helpers';
import { cliWorktreeTask } from './cli-worktree-task';

const FILE = 'task-views-target.txt';

const editCall = (id: string, old: string, text: string) => ({
  id,
  name: 'file_editor',
  arguments: { command: 'str_replace', path: FILE, old_str: old, new_str: text, security_risk: 'LOW' },
});
const finishTurn = {
  match: { lastRole: 'tool' as const },
  reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
};

const tabLabels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));

describe('task views: a task conversation where the user looks for it', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  const llms: ScriptedLlm[] = [];
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  before(async () => {
    await logbook();
    root = workspaceRoot();
    data = repositoryForTasks('task-views-', FILE, 'line 1\nline 2\n');
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const l of llms) await l.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, FILE), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it("lists a task's conversation marked as a task, opens the same session as the Tasks row, refuses Delete, verifies its own log", async () => {
    llms.push(
      await scriptedModel({
        name: 'task-views',
        turns: [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: '(viewed)' },
            reply: { toolCalls: [editCall('call_edit', 'line 1\n', 'line 1 by viewed\n')] },
          },
          finishTurn,
        ],
      }),
    );
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: 'rewrite line 1 (viewed)', name: 'viewed', carry: false },
    );
    assert.equal(started?.name, 'viewed', 'the task did not start');
    const session = await service.session(started.id);
    await untilValue(
      'the edit to wait for Confirm',
      () => session.conversation.awaitingConfirmation()[0],
      60_000,
    );
    const record = (await taskPlace()).store.get('viewed');

    // The Conversations view's rows: the task's conversation is one of them, marked as a task.
    const tree = new ConversationsTree(service);
    const rowOf = async (id: string) => {
      const rows = await tree.getChildren();
      const row = rows.find((r) => 'id' in r && r.id === id);
      assert.ok(row, `conversation ${id} is not in the Conversations view`);
      return tree.getTreeItem(row);
    };
    let item = await rowOf(started.id);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'git-branch');
    // The task's name alone in the label (a 300 px sidebar cuts what follows it); its status, its
    // time and its words after.
    assert.equal(item.label, 'viewed');
    assert.match(String(item.description), /^waiting for approval · \d\d:\d\d · rewrite line 1 \(viewed\)$/);
    assert.equal(item.contextValue, 'conversation.task.active');
    assert.deepEqual(
      [item.command?.command, item.command?.arguments],
      ['logbook.tasks.openConversation', ['viewed']],
    );

    // Its row opens the same session the chat holds, not a second one on the same log.
    await service.setActive(undefined);
    await vscode.commands.executeCommand(item.command!.command, ...item.command!.arguments!);
    assert.equal(service.activeId, started.id);
    assert.equal(await service.session(started.id), session, 'a second session of the task was opened');
    assert.equal(session.dir, record.log);

    // Delete is refused with a reason (its row does not offer it; the palette may still name it).
    const events = session.length;
    await vscode.commands.executeCommand('logbook.deleteConversation', started.id, true);
    assert.ok(existsSync(record.log), "the task's log was deleted");
    assert.equal(await service.session(started.id), session, "the task's session was closed");
    await assert.rejects(service.delete(started.id), /worktree task viewed/);
    assert.ok(readdirSync(record.log).length > 0);

    // Confirm, as in the chat; the row follows the task's status.
    await service.approve(started.id, [session.conversation.awaitingConfirmation()[0]!.id]);
    assert.equal(await session.settled(), 'finished');
    assert.ok(session.length > events);
    await untilValue('the row to say finished', async () =>
      /^finished · /.test(String((await rowOf(started.id)).description)) ? true : undefined,
    );
    // The Tasks view says so too while the window still holds the task's log open.
    const taskRow = ((await new TasksTree().getChildren()) as TaskNode[]).find(
      (r) => r.record.name === 'viewed',
    );
    assert.equal(taskRow?.facts.status, 'finished');

    // Verify reads the task's log (where the signatures are), not a folder of the window's.
    const check = await vscode.commands.executeCommand<{ result: { verdict: string } }>(
      'logbook.verifyConversation',
      started.id,
    );
    assert.equal(check?.result.verdict, 'verified');

    // A task the CLI ran is listed too, and opens on its own log.
    const llm = await startScriptedLlm({
      scenario: {
        name: 'task-views-cli',
        turns: [{ reply: { toolCalls: [editCall('call_edit', 'line 2\n', 'line 2 by cli\n')] } }, finishTurn],
      },
    });
    llms.push(llm);
    assert.equal(await cliWorktreeTask(root, 'from-cli', 'edit', llm, data), 0, 'the CLI task failed');
    const cliRecord = (await taskPlace()).store.get('from-cli');
    const rows = await tree.getChildren();
    const cliRow = rows.find(
      (r) => 'kind' in r && r.kind === 'task-conversation' && r.place.name === 'from-cli',
    );
    assert.ok(cliRow && 'id' in cliRow, "the CLI task's conversation is not listed");
    item = tree.getTreeItem(cliRow);
    assert.equal(item.label, 'from-cli');
    assert.match(String(item.description), /^finished · \d\d:\d\d · edit$/);
    await vscode.commands.executeCommand(item.command!.command, ...item.command!.arguments!);
    assert.equal(service.activeId, cliRow.id);
    assert.equal((await service.session(cliRow.id)).dir, cliRecord.log);
  });

  it("names the task in its review's multi-file diffs", async () => {
    llms.push(
      await scriptedModel({
        name: 'task-views-titles',
        turns: [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: '(titled)' },
            reply: { toolCalls: [editCall('call_edit', 'line 1\n', 'line 1 by titled\n')] },
          },
          finishTurn,
        ],
      }),
    );
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: 'rewrite line 1 (titled)', name: 'titled', carry: false },
    );
    assert.equal(started?.name, 'titled', 'the task did not start');
    const session = await service.session(started.id);
    const pending = await untilValue(
      'the edit to wait for Confirm',
      () => session.conversation.awaitingConfirmation()[0],
      60_000,
    );
    await service.approve(started.id, [pending.id]);
    assert.equal(await session.settled(), 'finished');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // The chat's Review Changes of the task's conversation: what its agent edited.
    await vscode.commands.executeCommand('logbook.reviewChanges', started.id);
    await until(
      () => tabLabels().some((l) => l.startsWith("Task titled: the agent's changes")),
      `the agent changes tab (tabs: ${tabLabels().join(', ')})`,
    );

    // Review Task Changes: its whole change against its base.
    assert.equal(await vscode.commands.executeCommand('logbook.tasks.review', 'titled'), 1);
    await until(
      () => tabLabels().some((l) => l.startsWith('Task titled (logbook/titled)')),
      'the task review tab',
    );

    // Per hunk: the task's files under the inline review, in a diff named after the task too.
    await vscode.commands.executeCommand('logbook.tasks.reviewHunks', 'titled');
    await until(
      () => tabLabels().some((l) => l.startsWith('Task titled: review per hunk')),
      'the per-hunk tab',
    );
    assert.ok(!tabLabels().some((l) => /Agent Changes/.test(l)), tabLabels().join(', '));
  });
});
