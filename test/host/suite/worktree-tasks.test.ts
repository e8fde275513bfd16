// Worktree tasks in real VS Code (issue 43): tasks started by the CLI and from the palette, listed
// in the Tasks view, reviewed, one applied, the next one's conflict opened and said, one discarded;
// tasks started from the palette run in the chat, each in its own session, confirmed there.
// The window's folder is made a git repository for this suite only (its .git is removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../../src/host/node/worktrees/apply-task';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { type TaskNode, TasksTree } from '../../../src/host/vscode/tasks/tasks-tree';
import { startScriptedLlm, type ScriptedLlm } from '../../support/llm-server';
import { treeHashes } from '../../unit/cli/worktree-fixtures';
import { cliWorktreeTask } from './cli-worktree-task';
import { EXTENSION_ID, logbook, scriptedModel, untilValue, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
const FILE = 'task-target.txt';

/** A scripted model whose task replaces `old` (line 2) of FILE with `text`, then finishes. */
function editScenario(name: string, text: string, old = 'line 2\n') {
  return {
    name,
    turns: [
      {
        reply: {
          toolCalls: [
            {
              id: 'call_edit',
              name: 'file_editor',
              arguments: {
                command: 'str_replace',
                path: FILE,
                old_str: old,
                new_str: text,
                security_risk: 'LOW',
                summary: 'rewrite line 2',
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
  };
}

describe('worktree tasks in the editor', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  const llms: ScriptedLlm[] = [];

  before(async () => {
    await logbook();
    root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const outside = join(ext, 'test-results', 'outside');
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'editor-tasks-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    writeFileSync(join(root, FILE), 'line 1\nline 2\n');
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'add', '--all');
    git(root, 'commit', '--quiet', '-m', 'first');
  });

  after(async () => {
    for (const l of llms) await l.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, FILE), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  async function cliTask(name: string, text: string): Promise<void> {
    const llm = await startScriptedLlm({ scenario: editScenario(name, text) });
    llms.push(llm);
    // In the window's folder, as a terminal there would run it (the task's repository is that folder's).
    const code = await cliWorktreeTask(root, name, `rewrite line 2 (${name})`, llm, data);
    assert.equal(code, 0, `task ${name} failed`);
  }

  it('two tasks on one file: listed, reviewed, the tree byte-identical until apply; one applied, the other a conflict opened; one discarded, its log kept', async () => {
    const before = treeHashes(root);
    await cliTask('first', 'line 2 by first\n');
    await cliTask('second', 'line 2 by second\n');
    await cliTask('third', 'line 2 by third\n');
    assert.deepEqual(treeHashes(root), before, 'the working tree changed before apply');

    // The view's rows, as the Tasks view shows them.
    const tree = new TasksTree();
    const rows = (await tree.getChildren()) as TaskNode[];
    assert.deepEqual(
      rows.map((r) => [r.record.name, r.facts.status, r.facts.files_changed]),
      [
        ['third', 'finished', 1],
        ['second', 'finished', 1],
        ['first', 'finished', 1],
      ],
    );
    const item = tree.getTreeItem(rows[2]!);
    assert.equal(item.contextValue, 'logbookTask.active');
    assert.match(String(item.description), /^finished · 1 file/);

    // Review: the whole change against the base, in one multi-file diff.
    assert.equal(await vscode.commands.executeCommand('logbook.tasks.review', 'first'), 1);
    const base = await vscode.workspace.openTextDocument(
      vscode.Uri.from({
        scheme: 'logbook-task-base',
        path: `/${FILE}`,
        query: rows[2]!.record.worktree,
        fragment: rows[2]!.record.base,
      }),
    );
    assert.equal(base.getText(), 'line 1\nline 2\n');
    assert.deepEqual(treeHashes(root), before, 'reviewing changed the working tree');

    const first = await vscode.commands.executeCommand<ApplyResult>('logbook.tasks.apply', 'first');
    assert.equal(first?.kind, 'merged');
    assert.equal(readFileSync(join(root, FILE), 'utf8'), 'line 1\nline 2 by first\n');
    assert.equal((await taskPlace()).store.get('first').status, 'applied');

    const second = await vscode.commands.executeCommand<ApplyResult>('logbook.tasks.apply', 'second');
    assert.deepEqual(second, { kind: 'conflict', conflicted: [FILE], committedPending: true });
    const opened = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === join(root, FILE));
    assert.ok(opened, 'the conflicted file was not opened');
    assert.match(
      opened.getText(),
      /^<<<<<<< HEAD\nline 2 by first\n=======\nline 2 by second\n>>>>>>> logbook\/second$/m,
    );
    assert.equal(
      (await taskPlace()).store.get('second').status,
      'active',
      'a conflict is not an applied task',
    );
    git(root, 'merge', '--abort');

    const third = (await taskPlace()).store.get('third');
    assert.equal(await vscode.commands.executeCommand('logbook.tasks.discard', 'third', true), true);
    assert.ok(!existsSync(third.worktree), 'the worktree is still there');
    assert.equal(git(root, 'branch', '--list', third.branch).trim(), '');
    assert.ok(existsSync(third.log), 'the log went with the task');
    assert.equal((await taskPlace()).store.get('third').status, 'discarded');
  });

  /** One scripted turn: the task whose message names `tag` rewrites `old` of FILE to `text`. */
  const editTurn = (tag: string, text: string, old: string) => ({
    match: { lastRole: 'user' as const, lastContentIncludes: tag },
    reply: {
      toolCalls: [
        {
          id: 'call_edit',
          name: 'file_editor',
          arguments: {
            command: 'str_replace',
            path: FILE,
            old_str: old,
            new_str: text,
            security_risk: 'LOW',
          },
        },
      ],
    },
  });
  const finishTurn = {
    match: { lastRole: 'tool' as const },
    reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
  };

  /** Starts a task from the palette command, as the user would, and waits for its edit to be asked. */
  async function startInChat(name: string, text: string) {
    const { service } = await logbook();
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      {
        task: text,
        name,
        carry: false,
      },
    );
    assert.equal(started?.name, name, 'the task did not start');
    const session = await service.session(started.id);
    const pending = await untilValue(
      `task ${name}'s edit to wait for Confirm`,
      () => session.conversation.awaitingConfirmation()[0],
      60_000,
    );
    return { service, id: started.id, session, actionId: pending.id };
  }

  describe('in the chat', () => {
    const cfg = () => vscode.workspace.getConfiguration('logbook');
    before(() => cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global));
    after(() => cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global));

    it('the palette command runs the task in the chat: Confirm edits its worktree, the main tree stays byte-identical; the header names it, its row opens it', async () => {
      llms.push(
        await scriptedModel({
          name: 'chat-task',
          // The setup step is the user's command answered before the model's first turn: that
          // request ends with its result, after the task's message.
          turns: [
            {
              ...editTurn('(started)', 'line 1 by started\n', 'line 1\n'),
              match: { lastRole: 'tool' as const, toolResultIncludes: 'setup step from worktrees.setup' },
            },
            finishTurn,
          ],
        }),
      );
      const before = treeHashes(root);
      // The user's setup step (worktrees.setup from the environment) runs first, in the worktree.
      process.env.LOGBOOK_WORKTREES_SETUP = 'echo setup-ran > setup.txt';
      const { service, id, session, actionId } = await startInChat(
        'started',
        'rewrite line 1 (started)',
      ).finally(() => delete process.env.LOGBOOK_WORKTREES_SETUP);
      assert.equal(service.activeId, id, 'the chat does not show the task');
      assert.deepEqual(service.header(id)?.task, { name: 'started', branch: 'logbook/started' });
      const record = (await taskPlace()).store.get('started');
      assert.equal(session.dir, record.log, "the log is not where the CLI keeps the task's log");

      // The Tasks view: the task waits for you, and its row opens its conversation.
      const tree = new TasksTree();
      const row = ((await tree.getChildren()) as TaskNode[]).find((r) => r.record.name === 'started')!;
      assert.deepEqual([row.facts.status, row.facts.waiting_for_you], ['waiting', true]);
      const item = tree.getTreeItem(row);
      assert.match(String(item.label), /^● started$/);
      assert.deepEqual(item.command?.arguments, ['started']);

      await service.approve(id, [actionId]);
      assert.equal(await session.settled(), 'finished');
      assert.equal(readFileSync(join(record.worktree, FILE), 'utf8').split('\n')[0], 'line 1 by started');
      assert.deepEqual(treeHashes(root), before, 'the task wrote the main working tree');

      await service.setActive(undefined);
      assert.equal(
        await vscode.commands.executeCommand(item.command!.command, ...item.command!.arguments!),
        id,
      );
      assert.equal(service.activeId, id);
      const facts = ((await tree.getChildren()) as TaskNode[]).find(
        (r) => r.record.name === 'started',
      )!.facts;
      assert.deepEqual([facts.status, facts.files_changed], ['finished', 2]);
      assert.equal(readFileSync(join(record.worktree, 'setup.txt'), 'utf8'), 'setup-ran\n');
      // The setup step is a command of the user's in the task's log, answered by its observation.
      const events = await session.conversation.events();
      const setup = events.find((e) => e.kind === 'ActionEvent' && e.summary?.startsWith('Worktree setup ('));
      const answer = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === setup?.id) as
        { observation?: { exit_code?: number } } | undefined;
      assert.equal(answer?.observation?.exit_code, 0, "the setup step is not in the task's log");

      // Discard goes on although the chat holds its log: a finished conversation held here is let go.
      assert.equal(await vscode.commands.executeCommand('logbook.tasks.discard', 'started', true), true);
      assert.ok(!existsSync(record.worktree), 'the worktree is still there');
    });

    it('two tasks at once edit the same file differently, each confirmed in its own session', async () => {
      llms.push(
        await scriptedModel({
          name: 'two-chat-tasks',
          turns: [
            editTurn('(alpha)', 'line 1 by alpha\n', 'line 1\n'),
            editTurn('(beta)', 'line 1 by beta\n', 'line 1\n'),
            finishTurn,
            finishTurn,
          ],
        }),
      );
      const before = treeHashes(root);
      const alpha = await startInChat('alpha', 'rewrite line 1 (alpha)');
      const beta = await startInChat('beta', 'rewrite line 1 (beta)');
      assert.notEqual(alpha.session, beta.session);
      assert.equal(alpha.session.conversation.status, 'waiting_for_confirmation', 'alpha no longer waits');

      // Each answered in its own session: beta first, alpha still waiting meanwhile.
      await beta.service.approve(beta.id, [beta.actionId]);
      assert.equal(await beta.session.settled(), 'finished');
      assert.equal(alpha.session.conversation.status, 'waiting_for_confirmation');
      await alpha.service.approve(alpha.id, [alpha.actionId]);
      assert.equal(await alpha.session.settled(), 'finished');

      const place = await taskPlace();
      const line1 = (name: string) =>
        readFileSync(join(place.store.get(name).worktree, FILE), 'utf8').split('\n')[0];
      assert.deepEqual([line1('alpha'), line1('beta')], ['line 1 by alpha', 'line 1 by beta']);
      assert.deepEqual(treeHashes(root), before, 'a task wrote the main working tree');
    });

    it('a task in the chat writes nothing of the main working tree: its file tool refuses it, its sandbox keeps a command off it', async () => {
      const escaped = join(root, 'escaped-by-tool.txt');
      const byCommand = join(root, 'escaped-by-command.txt');
      const call = (id: string, name: string, args: Record<string, unknown>) => ({
        reply: { toolCalls: [{ id, name, arguments: { ...args, security_risk: 'LOW' } }] },
      });
      llms.push(
        await scriptedModel({
          name: 'chat-task-escape',
          turns: [
            {
              match: { lastRole: 'user' as const, lastContentIncludes: '(escape)' },
              ...call('call_tool', 'file_editor', { command: 'create', path: escaped, file_text: 'out\n' }),
            },
            {
              match: { lastRole: 'tool' as const },
              ...call('call_cmd', 'terminal', {
                command: `echo out > ${byCommand}; echo out >> ${join(root, FILE)}; echo tried`,
              }),
            },
            finishTurn,
          ],
        }),
      );
      const before = treeHashes(root);
      const { service } = await logbook();
      const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
        'logbook.tasks.start',
        {
          task: 'write outside (escape)',
          name: 'escape',
          carry: false,
        },
      );
      const session = await service.session(started!.id);
      // Whatever it asks is confirmed: the boundary must hold without the user's help.
      await untilValue(
        'the escaping task to end',
        async () => {
          const pending = session.conversation.awaitingConfirmation().map((a) => a.id);
          if (pending.length) await service.approve(started!.id, pending);
          const status = session.conversation.status;
          return status === 'finished' || status === 'error' ? status : undefined;
        },
        90_000,
        200,
      );
      assert.deepEqual(
        [existsSync(escaped), existsSync(byCommand)],
        [false, false],
        'the task wrote into the main tree',
      );
      assert.deepEqual(treeHashes(root), before, 'the task changed the main working tree');
    });
  });
});
