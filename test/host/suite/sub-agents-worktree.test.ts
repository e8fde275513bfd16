// A delegated agent whose definition says `isolation: worktree` runs from the chat as it does in the
// CLI (issue 43): in a git worktree of its own on a branch `logbook/<parent>-<agent>-<child>`, under
// `<worktrees.dir>/<repo-key>/.agents/`, with the same sandbox; what it writes and commits stays out
// of the window's folder, and its parent reads its branch, its commits and what it left
// uncommitted. The Tasks view lists a task whose CLI process runs its setup as setting up, and as
// crashed once that process is killed. The window's folder is made a git repository for this suite
// only; the worktrees live in a folder the sandbox can reach (not under /tmp, which it replaces).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  appendFileSync,
  readdirSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { agentTree } from '../../../src/core/agents/agent-tree';
import { type TaskNode, TasksTree } from '../../../src/host/vscode/tasks/tasks-tree';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, EXTENSION_ID, logbook, scriptedModel, until, workspaceRoot } from './helpers';

const ID = ['-c', 'user.name=Tester', '-c', 'user.email=tester@example.com'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...ID, ...args], { cwd, encoding: 'utf8' }).trim();

const WRITER =
  '---\nname: writer\ndescription: Writes notes.\ntools: [file_editor, terminal]\nisolation: worktree\n---\nWrite them.\n';

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name, arguments: { security_risk: 'LOW', summary: id, ...args } }],
});

describe('Sub-agents: isolation: worktree in the editor; the Tasks view while a task starts', function () {
  this.timeout(120_000);
  let root: string;
  let data: string;
  let llm: ScriptedLlm | undefined;

  before(async () => {
    await logbook();
    root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    const outside = join(
      vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath,
      'test-results',
      'outside',
    );
    mkdirSync(outside, { recursive: true });
    data = mkdtempSync(join(outside, 'editor-agents-'));
    process.env.LOGBOOK_WORKTREES_DIR = data;
    mkdirSync(join(root, '.logbook', 'agents'), { recursive: true });
    writeFileSync(join(root, '.logbook', 'agents', 'writer.md'), WRITER);
    git(root, 'init', '--quiet', '--initial-branch=main');
    appendFileSync(join(root, '.git', 'info', 'exclude'), '.logbook/\n');
    git(root, 'add', '--all');
    git(root, 'commit', '--quiet', '-m', 'first');
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await llm?.close();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    delete process.env.LOGBOOK_WORKTREES_DIR;
    rmSync(join(root, '.git'), { recursive: true, force: true });
    rmSync(join(root, '.logbook'), { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('works and commits on its own branch in its own worktree; the folder is untouched; the parent reads where its work is', async () => {
    const head = git(root, 'rev-parse', 'HEAD');
    llm = await scriptedModel({
      name: 'host-worktree-agent',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'get notes' },
          reply: call('c_d', 'delegate', {
            command: 'delegate',
            ids: ['w'],
            agent_types: ['writer'],
            tasks: { w: 'write notes.txt and commit it' },
          }),
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'write notes.txt' },
          reply: call('c_w', 'file_editor', {
            command: 'create',
            path: 'notes.txt',
            file_text: 'the notes\n',
          }),
        },
        {
          match: { lastRole: 'tool', lastContentIncludes: 'notes.txt' },
          reply: call('c_c', 'terminal', {
            command:
              'git add notes.txt && git -c user.name=W -c user.email=w@example.com commit -qm notes; echo x > draft.txt',
          }),
        },
        { match: { lastRole: 'tool' }, reply: call('c_f', 'finish', { message: 'notes written' }) },
        { match: { lastRole: 'tool' }, reply: call('c_pf', 'finish', { message: 'Done.' }) },
      ],
    });
    const { controller, session, service } = await chatTask('get notes');
    try {
      await until(() => !['running', 'idle'].includes(session.conversation.status), 'the parent ends');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      // What the child did, for a failure's message.
      const child = agentTree(await session.conversation.events()).children[0]!;
      const did = (await service.childEventsAfter(session.id, child.conversationId, -1))
        .map((e) => JSON.stringify(e.event).slice(0, 600))
        .join('\n');
      assert.ok(!existsSync(join(root, 'notes.txt')), `written in the window’s folder\n${did}`);
      assert.ok(!existsSync(join(root, 'draft.txt')), 'written in the window’s folder');
      assert.equal(git(root, 'rev-parse', 'HEAD'), head);
      assert.equal(git(root, 'status', '--porcelain'), '');
      const branch = git(root, 'branch', '--list', 'logbook/*', '--format=%(refname:short)');
      assert.match(branch, /^logbook\/[a-z0-9]{8}-writer-[a-z0-9]{8}$/);
      assert.equal(git(root, 'log', '-1', '--format=%s', branch), 'notes', did);
      assert.equal(git(root, 'show', `${branch}:notes.txt`), 'the notes');
      assert.equal(git(root, 'log', '-1', '--format=%s', branch), 'notes');
      // Where the CLI makes it: under worktrees.dir, the repository's .agents/ folder.
      const dir = git(root, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree '))
        .map((l) => l.slice('worktree '.length))[1]!;
      assert.ok(dir.startsWith(data), dir);
      assert.ok(dir.endsWith(join('.agents', branch.slice('logbook/'.length))), dir);
      assert.equal(readFileSync(join(dir, 'draft.txt'), 'utf8'), 'x\n');
      // The parent's delegation came back with where the work is.
      const events = await session.conversation.events();
      const delegation = events.find((e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate')!;
      const told = JSON.stringify(
        events.find((e) => e.kind === 'ObservationEvent' && e.action_id === delegation.id),
      );
      assert.match(told, new RegExp(`on the branch ${branch}`));
      assert.match(told, /Commits on [^:]+: 1/);
      assert.match(told, /Not committed: 1 file/);
    } finally {
      controller.dispose();
    }
  });

  it('the Tasks view lists a task whose process runs its setup as setting up, and as crashed once that process is killed', async () => {
    const cli = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
    const child = spawn(
      process.execPath,
      [cli, 'run', '--worktree=slow-setup', '--confirm', 'never', 'wait'],
      {
        cwd: root,
        env: {
          ...process.env,
          ELECTRON_RUN_AS_NODE: '1',
          LOGBOOK_BASE_URL: 'http://127.0.0.1:9/v1',
          LOGBOOK_MODEL: 'scripted-model',
          LOGBOOK_WORKTREES_DIR: data,
          LOGBOOK_WORKTREES_SETUP: 'touch setup-started; sleep 30',
        },
        stdio: 'ignore',
      },
    );
    const exit = once(child, 'exit');
    try {
      const tree = new TasksTree();
      const status = async () =>
        ((await tree.getChildren()) as TaskNode[]).find((r) => r.record.name === 'slow-setup')?.facts.status;
      await until(() => {
        const key = existsSync(data) ? readdirSync(data) : [];
        return key.some((k) => existsSync(join(data, k, 'slow-setup', 'setup-started')));
      }, 'the setup step runs');
      assert.equal(await status(), 'setting up');
      child.kill('SIGKILL');
      await exit;
      assert.equal(await status(), 'crashed');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
