// A task continued with "Continue from here" works like a task: its setup step runs in its own
// worktree (in the sandbox, shown in its conversation; never writing the source task's worktree
// or the main working tree), "Restore files to here" on a point it copied from the source puts
// its own worktree back, and `logbook fork` at a terminal continues a task the editor ran (its
// checkpoints are where the editor keeps them).
// The window's folder is made a git repository for this suite only (its .git is removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import type { Event } from '../../../src/core/events';
import { checkpointAt } from '../../../src/core/checkpoints/timeline';
import { GitCheckpointStore } from '../../../src/host/node/checkpoints/git-checkpoint-store';
import { cliCheckpointsOf } from '../../../src/host/node/worktrees/editor-tasks';
import { editorStoreDirOf } from '../../../src/host/node/worktrees/task-checkpoint-stores';
import type { ScriptedLlm } from '../../support/llm-server';
import { treeHashes } from '../../unit/cli/worktree-fixtures';
import { EXTENSION_ID, logbook, repositoryForTasks, scriptedModel, workspaceRoot } from './helpers';
import { RestoreAll } from './restore-ui';

const FILE = 'task-continue-target.txt';
const ORIGINAL = 'line 1\nline 2\n';
const FIRST = 'line 1 by the task\nline 2\n';
const BOTH = 'line 1 by the task\nline 2 by the task\n';

const edit = (id: string, from: string, to: string) => ({
  toolCalls: [
    {
      id,
      name: 'file_editor',
      arguments: { command: 'str_replace', path: FILE, old_str: from, new_str: to, security_risk: 'LOW' },
    },
  ],
});

describe('continued worktree tasks work like tasks', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  let id: string;
  let events: Event[];
  let sourceWorktree: string;
  const llms: ScriptedLlm[] = [];
  const cfg = () => vscode.workspace.getConfiguration('logbook');
  const action = (callId: string) =>
    events.find((e) => e.kind === 'ActionEvent' && e.tool_call_id === callId)!;

  before(async () => {
    const { service } = await logbook();
    root = workspaceRoot();
    data = repositoryForTasks('task-continue-', FILE, ORIGINAL);
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    llms.push(
      await scriptedModel({
        name: 'task-continue-source',
        turns: [
          {
            match: { lastRole: 'user' as const, lastContentIncludes: '(cont)' },
            reply: edit('call_one', 'line 1\n', 'line 1 by the task\n'),
          },
          {
            match: { lastRole: 'tool' as const },
            reply: edit('call_two', 'line 2\n', 'line 2 by the task\n'),
          },
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      }),
    );
    const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
      'logbook.tasks.start',
      { task: 'rewrite both lines (cont)', name: 'cont', carry: false },
    );
    assert.equal(started?.name, 'cont', 'the task did not start');
    id = started.id;
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    events = await session.conversation.events();
    sourceWorktree = (await taskPlace()).store.get('cont').worktree;
    assert.equal(readFileSync(join(sourceWorktree, FILE), 'utf8'), BOTH);
  });

  after(async () => {
    for (const l of llms) await l.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    delete process.env.LOGBOOK_WORKTREES_SETUP;
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, FILE), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it("Continue from here runs the setup step in the new worktree only, shown in the new task's conversation", async () => {
    const { service } = await logbook();
    const mainBefore = treeHashes(root);
    const sourceBefore = treeHashes(sourceWorktree);
    // The step also tries the source's worktree and the main tree: the sandbox lets it write neither.
    process.env.LOGBOOK_WORKTREES_SETUP =
      `echo setup-ran > setup.txt; echo pwned > ${join(sourceWorktree, 'planted.txt')}; ` +
      `echo pwned > ${join(root, 'planted.txt')}; echo pwned > ${join(root, FILE)}; true`;
    const continued = await service
      .forkFrom(id, action('call_two').id)
      .finally(() => delete process.env.LOGBOOK_WORKTREES_SETUP);
    const record = (await taskPlace()).store.get('cont-2');
    assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), FIRST);
    assert.equal(readFileSync(join(record.worktree, 'setup.txt'), 'utf8'), 'setup-ran\n');
    const session = await service.session(continued.forkId);
    const copied = await session.conversation.events();
    const step = copied.find(
      (e) => e.kind === 'ActionEvent' && e.summary === 'Worktree setup (worktrees.setup)',
    );
    const answer = copied.find((e) => e.kind === 'ObservationEvent' && e.action_id === step?.id) as
      { observation?: { exit_code?: number } } | undefined;
    assert.equal(answer?.observation?.exit_code, 0, "the setup step is not in the continued task's log");
    // The copied points' checkpoints are in the CLI's store of the new worktree too (logbook restore).
    const cliStore = new GitCheckpointStore({
      workspace: record.worktree,
      storeDir: cliCheckpointsOf(record.worktree, process.env).storeDir,
    });
    const atFirst = checkpointAt(events, action('call_one').id);
    assert.ok(atFirst && (await cliStore.held(continued.forkId)).includes(atFirst.value.checkpoint));
    assert.ok(!existsSync(join(sourceWorktree, 'planted.txt')), "the setup wrote the source's worktree");
    assert.deepEqual(treeHashes(sourceWorktree), sourceBefore, "the setup wrote the source's worktree");
    assert.deepEqual(treeHashes(root), mainBefore, 'the setup wrote the main working tree');
  });

  it('Restore files to here on a point copied from the source restores the new worktree', async () => {
    const { service } = await logbook();
    const continued = await service.forkFrom(id, events.at(-1)!.id);
    const record = (await taskPlace()).store
      .list()
      .find((t) => t.name.startsWith('cont-') && t.name !== 'cont-2')!;
    assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), BOTH);
    const mainBefore = treeHashes(root);
    const sourceBefore = treeHashes(sourceWorktree);
    const ui = new RestoreAll();
    const outcome = await service.restoreFiles(continued.forkId, action('call_one').id, ui);
    assert.equal(ui.shown?.workspace, record.worktree, 'the preview is not of the new worktree');
    assert.equal(outcome.restored, 1, ui.messages.join('\n'));
    assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), ORIGINAL);
    assert.deepEqual(treeHashes(sourceWorktree), sourceBefore, "the restore wrote the source's worktree");
    assert.deepEqual(treeHashes(root), mainBefore, 'the restore wrote the main working tree');
  });

  it('logbook fork at a terminal continues the task the editor ran, from the checkpoints the editor keeps', async () => {
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const env = {
      ...process.env,
      ELECTRON_RUN_AS_NODE: '1',
      LOGBOOK_WORKTREES_DIR: data,
      // The CLI's own checkpoints are elsewhere: only the editor's hold the task's files.
      LOGBOOK_CHECKPOINTS_DIR: join(data, 'cli-checkpoints'),
    };
    const r = spawnSync(
      process.execPath,
      [cli, 'fork', 'cont', '--at', action('call_two').id, '--name', 'at-cli'],
      {
        cwd: root,
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    const record = (await taskPlace()).store.get('at-cli');
    assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), FIRST);
    // Opened in the editor, its copied points restore from the window's store (the source's note
    // told the fork where it is).
    const { service } = await logbook();
    const opened = await vscode.commands.executeCommand<string>('logbook.tasks.openConversation', 'at-cli');
    const ui = new RestoreAll();
    const outcome = await service.restoreFiles(opened, action('call_one').id, ui);
    assert.equal(outcome.restored, 1, ui.messages.join('\n'));
    assert.equal(readFileSync(join(record.worktree, FILE), 'utf8'), ORIGINAL);

    // A copied point whose checkpoint the window's store does not hold (here: its store removed, as
    // a release would) is not restored: the message says why, and nothing is written.
    const bare = spawnSync(
      process.execPath,
      [cli, 'fork', 'cont', '--at', action('call_two').id, '--name', 'not-held'],
      { cwd: root, env, encoding: 'utf8' },
    );
    assert.equal(bare.status, 0, `${bare.stdout}${bare.stderr}`);
    const notHeld = (await taskPlace()).store.get('not-held');
    rmSync(editorStoreDirOf(notHeld.log, notHeld.worktree)!, { recursive: true });
    const reopened = await vscode.commands.executeCommand<string>(
      'logbook.tasks.openConversation',
      'not-held',
    );
    const told = new RestoreAll();
    const none = await service.restoreFiles(reopened, action('call_one').id, told);
    assert.equal(none.restored, 0);
    assert.match(
      told.messages.join('\n'),
      /cannot be restored: this conversation's checkpoints do not hold them/,
    );
    assert.equal(readFileSync(join(notHeld.worktree, FILE), 'utf8'), FIRST);
  });
});
