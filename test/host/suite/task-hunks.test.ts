// A worktree task reviewed per file and per hunk before apply, in real VS Code (issue 43): the
// task's files under the inline review (its Accept / Reject CodeLens), one hunk of one file
// rejected through its lens, the rest accepted, then applied. The main tree holds exactly the
// accepted change, the branch a commit for the rejection, the task's log every decision. Decisions are refused while the task
// runs. The window's folder is made a git repository for this suite only (its .git removed after);
// the tasks live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApplyResult } from '../../../src/host/node/worktrees/apply-task';
import { pathToUri } from '../../../src/host/vscode/ports/workspace-paths';
import type { TaskHunkReview } from '../../../src/host/vscode/tasks/task-hunk-review';
import { taskPlace } from '../../../src/host/vscode/tasks/task-place';
import { startScriptedLlm, type ScriptedLlm } from '../../support/llm-server';
import { treeHashes } from '../../unit/cli/worktree-fixtures';
import { cliWorktreeTask, extensionCli } from './cli-worktree-task';
import { EXTENSION_ID, logbook, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
const A = 'hunks-a.txt';
const B = 'hunks-b.txt';
const A_TEXT = 'apple\nbanana\ncherry\ndate\nelder\nfig\ngrape\n';

const edit = (id: string, path: string, old: string, text: string) => ({
  id,
  name: 'file_editor',
  arguments: { command: 'str_replace', path, old_str: old, new_str: text, security_risk: 'LOW', summary: id },
});

/** The task: two hunks in A (its first and last lines), one in B. */
const scenario = {
  name: 'task-hunks',
  turns: [
    {
      reply: {
        toolCalls: [
          edit('call_a1', A, 'apple\n', 'APPLE\n'),
          edit('call_a2', A, 'grape\n', 'GRAPE\n'),
          edit('call_b', B, 'one\n', 'ONE\n'),
        ],
      },
    },
    {
      match: { lastRole: 'tool' as const },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
    },
  ],
};

async function lenses(file: string): Promise<vscode.CodeLens[]> {
  const all = await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider',
    pathToUri(file),
  );
  return all.filter((l) => l.command?.command.startsWith('logbook.review.'));
}

const run = (lens: vscode.CodeLens) =>
  vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));

describe('a worktree task reviewed per hunk', function () {
  this.timeout(180_000);
  let root: string;
  let data: string;
  let llm: ScriptedLlm | undefined;

  before(async () => {
    await logbook();
    root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const outside = join(ext, 'test-results', 'outside');
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'task-hunks-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    writeFileSync(join(root, A), A_TEXT);
    writeFileSync(join(root, B), 'one\ntwo\n');
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'add', '--all');
    git(root, 'commit', '--quiet', '-m', 'first');
  });

  after(async () => {
    await llm?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    for (const f of [A, B, 'hunks-continued.txt']) rmSync(join(root, f), { force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('one hunk of one file rejected, the rest accepted, applied: the main tree has exactly the accepted change, the branch the rejection', async () => {
    llm = await startScriptedLlm({ scenario });
    assert.equal(await cliWorktreeTask(root, 'hunks', 'edit', llm, data), 0, 'the task failed');
    const before = treeHashes(root);
    const task = (await taskPlace()).store.get('hunks');

    const shown = await vscode.commands.executeCommand<TaskHunkReview>('logbook.tasks.reviewHunks', 'hunks');
    assert.deepEqual(shown, { reviewed: [A, B], skipped: [] });
    const a = join(task.worktree, A);
    const b = join(task.worktree, B);
    await vscode.window.showTextDocument(pathToUri(a));
    // The inline review's own lenses: Accept All / Reject All, then Accept / Reject per hunk.
    const onA = await lenses(a);
    const titles = onA.map((l) => l.command!.title);
    assert.deepEqual(
      titles.filter((t) => /Accept|Reject/.test(t)),
      [
        '$(check-all) Accept All (2 changes)',
        '$(discard) Reject All',
        '$(check) Accept',
        '$(close) Reject',
        '$(check) Accept',
        '$(close) Reject',
      ],
    );

    // While the task runs (another live process holds its log's writer lock), no decision is taken.
    const writer = spawn('sleep', ['120'], { stdio: 'ignore' });
    const lockFile = join(task.log, 'LOCK');
    writeFileSync(
      lockFile,
      JSON.stringify({
        pid: writer.pid,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
        token: 'w',
      }),
    );
    try {
      assert.equal(await run(onA.find((l) => l.command!.title === '$(close) Reject')!), undefined);
      assert.equal(readFileSync(a, 'utf8'), 'APPLE\nbanana\ncherry\ndate\nelder\nfig\nGRAPE\n');
    } finally {
      rmSync(lockFile, { force: true });
      writer.kill();
    }

    // Reject the first hunk of A (APPLE), accept its second, accept all of B.
    assert.equal(await run(onA.find((l) => l.command!.title === '$(close) Reject')!), true);
    assert.equal(readFileSync(a, 'utf8'), 'apple\nbanana\ncherry\ndate\nelder\nfig\nGRAPE\n');
    assert.equal(
      git(task.worktree, 'log', '-1', '--format=%s', task.branch).trim(),
      `Logbook review of task hunks: reject a hunk of ${A}`,
    );
    const accept = (await lenses(a)).find((l) => l.command!.title === '$(check) Accept')!;
    assert.equal(await run(accept), true);
    await vscode.commands.executeCommand('logbook.review.acceptFile', {
      conversationId: 'task:hunks',
      path: b,
    });
    assert.deepEqual(await lenses(a), [], 'A still has changes under review');
    assert.deepEqual(treeHashes(root), before, 'the review changed the working tree');

    const applied = await vscode.commands.executeCommand<ApplyResult>('logbook.tasks.apply', 'hunks');
    assert.equal(applied?.kind, 'merged');
    assert.equal(applied?.committedPending, false, 'the review left something uncommitted');
    assert.equal(readFileSync(join(root, A), 'utf8'), 'apple\nbanana\ncherry\ndate\nelder\nfig\nGRAPE\n');
    assert.equal(readFileSync(join(root, B), 'utf8'), 'ONE\ntwo\n');
    assert.deepEqual(git(root, 'log', '--format=%s', `${task.base}..HEAD^2`).trim().split('\n'), [
      `Logbook review of task hunks: reject a hunk of ${A}`,
      "Logbook task hunks: the task's uncommitted work",
    ]);
    // The rejection and the apply are in the task's signed log too, as `logbook show` reads it.
    const logged = execFileSync(process.execPath, [extensionCli(), 'show', task.log, '--json'], {
      cwd: root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', LOGBOOK_WORKTREES_DIR: data },
      encoding: 'utf8',
    });
    const decisions = (
      JSON.parse(logged) as {
        task_decisions: { decision: string; via: string; path?: string; hunk?: string; commit?: string }[];
      }
    ).task_decisions;
    assert.deepEqual(
      decisions.map((d) => `${d.decision} ${d.via} ${d.path ?? ''}`.trim()),
      [`reject_hunk editor ${A}`, `accept_hunk editor ${A}`, `accept_file editor ${B}`, 'apply editor'],
    );
    // An acceptance names the hunk (GRAPE, A's last line) and the branch's commit it was made on.
    assert.equal(decisions[1]!.hunk, '@@ -7,1 +7,1 @@');
    assert.equal(decisions[1]!.commit, decisions[2]!.commit);
    assert.equal(
      git(task.worktree, 'log', '-1', '--format=%s', decisions[1]!.commit!).trim(),
      `Logbook review of task hunks: reject a hunk of ${A}`,
    );
  });

  it('a task run at a terminal is continued from a point in the chat, from the CLI checkpoints', async () => {
    await llm?.close();
    const C = 'hunks-continued.txt';
    llm = await startScriptedLlm({
      scenario: {
        name: 'task-continued',
        turns: [
          {
            reply: {
              toolCalls: [
                {
                  id: 'call_c1',
                  name: 'file_editor',
                  arguments: { command: 'create', path: C, file_text: 'one\n', security_risk: 'LOW' },
                },
              ],
            },
          },
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [edit('call_c2', C, 'one\n', 'two\n')] },
          },
          {
            match: { lastRole: 'tool' as const },
            reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
          },
        ],
      },
    });
    assert.equal(await cliWorktreeTask(root, 'cont', 'make C', llm, data), 0, 'the task failed');
    const source = (await taskPlace()).store.get('cont');
    const sourceBefore = treeHashes(source.worktree);
    const mainBefore = treeHashes(root);
    const id = await vscode.commands.executeCommand<string>('logbook.tasks.openConversation', 'cont');
    const { service } = await logbook();
    const events = await (await service.session(id)).conversation.events();
    const second = events.find(
      (e) => e.kind === 'ActionEvent' && (e as { tool_call_id?: string }).tool_call_id === 'call_c2',
    )!;
    const { forkId } = await service.forkFrom(id, second.id);
    assert.equal(service.activeId, forkId);
    const continued = (await taskPlace()).store.get('cont-2');
    assert.equal(readFileSync(join(continued.worktree, C), 'utf8'), 'one\n', 'not the files before call_c2');
    assert.equal(readFileSync(join(source.worktree, C), 'utf8'), 'two\n');
    assert.deepEqual(treeHashes(source.worktree), sourceBefore, 'the source task changed');
    assert.deepEqual(treeHashes(root), mainBefore, 'the main working tree changed');
  });
});
