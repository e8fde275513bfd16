// Pause and Stop of worktree tasks from the Tasks view (issue 43): Pause All Tasks and Stop All
// Tasks act on every task this window runs, each through the chat's own Pause and Stop (each log
// records its pause), and a running row's Stop stops that task only.
// The window's folder is made a git repository for this suite only (its .git is removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ConversationSession } from '../../../src/host/vscode/conversations/conversation-session';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { type TaskNode, TasksTree } from '../../../src/host/vscode/tasks/tasks-tree';
import { type Scenario, type ScriptedLlm, startScriptedLlm } from '../../support/llm-server';
import { EXTENSION_ID, logbook, scriptedModel, until, untilValue, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
const finish = { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] };

/** Each task's first model call waits until the test releases `hold` (a Stop cancels it). */
const held = (hold: string): Scenario => ({
  name: `task-halt-${hold}`,
  turns: [{ match: { lastRole: 'user' }, repeat: 2, reply: { holdUntilReleased: hold, ...finish } }],
  fallback: finish,
});

/** The run loop was asked to pause (it waits for the model call in flight). */
const pauseAsked = (s: ConversationSession) =>
  (s.conversation as unknown as { runLoop: { pauseSignal: AbortSignal } }).runLoop.pauseSignal.aborted;

const pauses = async (s: ConversationSession) =>
  (await s.conversation.events()).filter((e) => (e as { kind?: string }).kind === 'PauseEvent').length;

describe('worktree tasks: Pause and Stop, per task and for all', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  let llm: ScriptedLlm | undefined;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  before(async () => {
    await logbook();
    root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const outside = join(ext, 'test-results', 'outside');
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'task-halt-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    writeFileSync(join(root, 'task-halt.txt'), 'one\n');
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'add', '--all');
    git(root, 'commit', '--quiet', '-m', 'first');
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  after(async () => {
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, 'task-halt.txt'), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  /** Starts tasks `names` in the chat and waits until each one's model call is held. */
  async function startHeld(hold: string, ...names: string[]): Promise<ConversationSession[]> {
    llm = await scriptedModel(held(hold));
    const { service } = await logbook();
    const sessions: ConversationSession[] = [];
    for (const name of names) {
      const started = await vscode.commands.executeCommand<{ name: string; id: string }>(
        'logbook.tasks.start',
        { task: `wait a while (${name})`, name, carry: false },
      );
      assert.equal(started?.name, name, `task ${name} did not start`);
      sessions.push(await service.session(started.id));
    }
    const model = llm;
    await until(() => model.completionBodies().length >= names.length, 'both model calls to be held');
    assert.ok(
      sessions.every((s) => s.busy),
      'a task is not running',
    );
    return sessions;
  }

  it('Pause All Tasks pauses every task this window runs; each log records its pause', async () => {
    const sessions = await startHeld('pause-all', 'pause-a', 'pause-b');
    const paused = vscode.commands.executeCommand<{ halted: string[] }>('logbook.tasks.pauseAll');
    // A pause lets the model call in flight end, then the run stops before its next step.
    await until(() => sessions.every(pauseAsked), 'the pause of both tasks to be asked');
    llm!.release('pause-all');
    const result = await paused;
    assert.deepEqual(result?.halted.sort(), ['pause-a', 'pause-b']);
    for (const s of sessions) {
      assert.equal(s.busy, false, 'a task still runs');
      assert.equal(s.conversation.status, 'paused');
      assert.equal(await pauses(s), 1, 'the log has no pause event');
    }
  });

  it('Stop All Tasks stops every task this window runs, its model call cancelled', async () => {
    const sessions = await startHeld('stop-all', 'stop-a', 'stop-b');
    // Never released: only a stop ends these calls.
    const result = await vscode.commands.executeCommand<{ halted: string[] }>('logbook.tasks.stopAll');
    assert.deepEqual(result?.halted.sort(), ['stop-a', 'stop-b']);
    for (const s of sessions) {
      assert.equal(s.busy, false, 'a task still runs');
      assert.equal(s.conversation.status, 'paused');
      assert.equal(await pauses(s), 1, 'the log has no pause event');
    }
  });

  it("a running task's row offers Pause and Stop, and its Stop stops that task only", async () => {
    const [one, other] = await startHeld('row-stop', 'row-one', 'row-other');
    const store = (await taskPlace()).store;
    const { service } = await logbook();
    // As the Tasks view makes it: told which tasks this window runs.
    const tree = new TasksTree((dir) => !!service.heldTask(dir)?.running);
    const rows = (await tree.getChildren()).filter((n): n is TaskNode => typeof n !== 'string');
    const row = rows.find((n) => n.record.name === 'row-one');
    assert.ok(row, 'no row for the task');
    assert.equal(tree.getTreeItem(row).contextValue, 'logbookTask.active.running', row.facts.status);
    const result = await vscode.commands.executeCommand<{ halted: string[] }>('logbook.tasks.stop', row);
    assert.deepEqual(result?.halted, ['row-one']);
    assert.equal(one!.busy, false, 'the stopped task still runs');
    assert.equal(one!.conversation.status, 'paused');
    assert.equal(other!.busy, true, 'the other task was stopped too');
    assert.equal(await pauses(other!), 0);
    assert.equal(store.get('row-other').status, 'active');
    await vscode.commands.executeCommand('logbook.tasks.stopAll');
    assert.equal(other!.busy, false);
  });

  it('a task a terminal runs is not touched by Stop All Tasks; the message names it', async () => {
    const cliLlm = await startScriptedLlm({ scenario: held('terminal') });
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, 'run', '--worktree=in-terminal', 'wait a while'], {
      cwd: root,
      env: {
        ...process.env,
        ELECTRON_RUN_AS_NODE: '1',
        LOGBOOK_BASE_URL: cliLlm.baseUrl,
        LOGBOOK_MODEL: 'scripted-model',
        LOGBOOK_WORKTREES_DIR: data,
      },
      stdio: 'ignore',
    });
    const ended = once(child, 'exit');
    try {
      await until(() => cliLlm.completionBodies().length >= 1, 'the terminal task to call the model');
      await untilValue('the terminal task to read as running', async () => {
        const rows = (await new TasksTree().getChildren()) as TaskNode[];
        return rows.find((r) => r.record.name === 'in-terminal')?.facts.status === 'running' || undefined;
      });
      const result = await vscode.commands.executeCommand<{ halted: string[]; elsewhere: string[] }>(
        'logbook.tasks.stopAll',
      );
      assert.deepEqual(result, { halted: [], elsewhere: ['in-terminal'] });
      assert.equal(child.exitCode, null, 'the terminal task was stopped');
    } finally {
      child.kill('SIGINT');
      await ended;
      await cliLlm.close();
    }
  });
});
