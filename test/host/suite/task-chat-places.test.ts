// A worktree task's conversation in the chat reads and restores its own worktree (issue 43): the
// timeline's points and diffs, "Restore files to here" and "Continue from here" (a new task, in a
// worktree of its own) of a task started from the palette use the task's worktree and checkpoints,
// and never write the main working tree.
// The window's folder is made a git repository for this suite only (its .git is removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import type { ScriptedLlm } from '../../support/llm-server';
import { treeHashes } from '../../unit/cli/worktree-fixtures';
import {
  EXTENSION_ID,
  logbook,
  scriptedModel,
  until,
  untilValue,
  workspaceRoot,
  repositoryForTasks,
} from './helpers';
import { RestoreAll } from './restore-ui';

const FILE = 'task-place-target.txt';
const ORIGINAL = 'line 1\nline 2\n';

describe('worktree task conversations read their worktree', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  const llms: ScriptedLlm[] = [];
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

  before(async () => {
    await logbook();
    root = workspaceRoot();
    data = repositoryForTasks('task-places-', FILE, ORIGINAL);
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
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

  /** A scripted model whose task, named by `tag`, replaces line 1 of FILE with `text`, then finishes. */
  const editLine1 = (tag: string, text: string) => ({
    name: `task-place-${tag}`,
    turns: [
      {
        match: { lastRole: 'user' as const, lastContentIncludes: tag },
        reply: {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'file_editor',
              arguments: {
                command: 'str_replace',
                path: FILE,
                old_str: 'line 1\n',
                new_str: text,
                security_risk: 'LOW',
              },
            },
          ],
        },
      },
      {
        match: { lastRole: 'tool' as const },
        reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
      },
    ],
  });

  it("the timeline, a restore and Continue from here use the task's worktree; the main tree stays byte-identical", async () => {
    llms.push(await scriptedModel(editLine1('(placed)', 'line 1 by the task\n')));
    const before = treeHashes(root);
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: 'rewrite line 1 (placed)', name: 'placed', carry: false },
    );
    assert.equal(started?.name, 'placed', 'the task did not start');
    const id = started.id;
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    const worktree = (await taskPlace()).store.get('placed').worktree;
    const inWorktree = join(worktree, FILE);
    assert.equal(readFileSync(inWorktree, 'utf8'), 'line 1 by the task\nline 2\n');
    assert.deepEqual(treeHashes(root), before, 'the task wrote the main working tree');

    // The timeline: the file the task changed, and "now" is the worktree's file.
    const last = session.eventCount - 1;
    const point = await service.timeline.pointAt(id, last);
    assert.deepEqual(
      point.files.map((f) => `${f.status} ${f.path}`),
      [`M ${FILE}`],
    );
    await service.timeline.openDiff(id, last, FILE, 'now');
    const nowLabel = `${FILE} (event ${last + 1} ↔ now)`;
    await until(() => tabs().some((t) => t.label === nowLabel), 'the now diff');
    const nowTab = tabs().find((t) => t.label === nowLabel)!.input as vscode.TabInputTextDiff;
    assert.equal(
      (await vscode.workspace.openTextDocument(nowTab.modified)).getText(),
      'line 1 by the task\nline 2\n',
      "the diff's now side is not the worktree's file",
    );
    await service.timeline.openDiff(id, last, FILE, 'start');
    const startLabel = `${FILE} (start ↔ event ${last + 1})`;
    await until(() => tabs().some((t) => t.label === startLabel), 'the start diff');
    const startTab = tabs().find((t) => t.label === startLabel)!.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(startTab.original)).getText(), ORIGINAL);

    // Continue from here makes a new task: its own branch and worktree, holding the files at that
    // point (before the edit, at the action), never a conversation of the window's folder.
    const events = await session.conversation.events();
    const action = events.find((e) => e.kind === 'ActionEvent');
    assert.ok(action);
    const sourceBefore = treeHashes(worktree);
    const atAction = await service.forkFrom(id, action.id);
    const store = (await taskPlace()).store;
    const second = store.get('placed-2');
    assert.equal(service.activeId, atAction.forkId, 'the chat does not show the continued task');
    assert.equal(second.base, store.get('placed').base);
    assert.equal(readFileSync(join(second.worktree, FILE), 'utf8'), ORIGINAL);
    assert.ok(
      (await (await service.session(atAction.forkId)).conversation.events()).some((e) => e.id === action.id),
    );
    // After the edit's result: the files as the task left them; the continued task goes on there.
    const seen = events.find((e) => e.kind === 'ObservationEvent')!;
    llms.push(
      await scriptedModel({
        name: 'task-place-continued',
        turns: [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: '(continued)' },
            reply: {
              toolCalls: [
                {
                  id: 'call_more',
                  name: 'file_editor',
                  arguments: {
                    command: 'str_replace',
                    path: FILE,
                    old_str: 'line 2\n',
                    new_str: 'line 2 continued\n',
                    security_risk: 'LOW',
                  },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      }),
    );
    const afterEdit = await service.forkFrom(id, seen.id);
    const third = store.get('placed-3');
    const continued = await service.session(afterEdit.forkId);
    assert.equal(readFileSync(join(third.worktree, FILE), 'utf8'), 'line 1 by the task\nline 2\n');
    await continued.send('go on (continued)');
    assert.equal(await continued.settled(), 'finished', continued.conversation.state.lastError?.message);
    assert.equal(readFileSync(join(third.worktree, FILE), 'utf8'), 'line 1 by the task\nline 2 continued\n');
    assert.deepEqual(treeHashes(worktree), sourceBefore, 'continuing wrote the source task');
    assert.deepEqual(treeHashes(root), before, 'continuing wrote the main working tree');

    // Restore files to here: the worktree goes back, the main tree is not written.
    const ui = new RestoreAll();
    const outcome = await service.restoreFiles(id, action.id, ui);
    assert.equal(ui.shown?.workspace, worktree, 'the preview is not of the worktree');
    assert.equal(ui.shown?.canFork, false, 'a fork is offered for a task');
    assert.equal(outcome.restored, 1, ui.messages.join('\n'));
    assert.equal(readFileSync(inWorktree, 'utf8'), ORIGINAL);
    assert.deepEqual(treeHashes(root), before, 'the restore wrote the main working tree');
    await untilValue(
      'the now side to follow the restore',
      async () =>
        (await vscode.workspace.openTextDocument(nowTab.modified)).getText() === ORIGINAL || undefined,
      10_000,
    );
  });

  it('logbook apply in a terminal applies a task whose conversation the window holds open between steps', async () => {
    llms.push(await scriptedModel(editLine1('(held)', 'line 1 by the held task\n')));
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: 'rewrite line 1 (held)', name: 'held', carry: false },
    );
    assert.equal(started?.name, 'held', 'the task did not start');
    const session = await service.session(started.id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    assert.equal(service.activeId, started.id, 'the chat does not hold the task open');
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const r = spawnSync(process.execPath, [cli, 'apply', 'held'], {
      cwd: root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', LOGBOOK_WORKTREES_DIR: data },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    assert.equal(readFileSync(join(root, FILE), 'utf8'), 'line 1 by the held task\nline 2\n');
    // The conversation stays open in the chat, and a next step still runs there.
    assert.equal(session.readOnly, false);
  });
});
