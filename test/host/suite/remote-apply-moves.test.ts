// A remote conversation's rename and symlinks in the editor, against the real agent-server: Review
// the Server's Changes shows a renamed file as one (its HEAD side under the old name), and Apply
// renames it here, makes the symlink that leads inside the window's tree and refuses, naming why,
// the one that leads out of it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { type AgentServer, agentServerMissing, extensionPath, startAgentServer } from './agent-server';
import { logbook, recordingWebview, scriptedModel, until, workspaceRoot } from './helpers';

const BASE = 'line 1\nline 2\nline 3\nline 4\n';

const MOVES: Scenario = {
  name: 'remote-moves-editor',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: 'call_moves',
            name: 'terminal',
            arguments: {
              command:
                "mv a.txt moved.txt && printf 'line 5\\n' >> moved.txt && ln -s moved.txt alias && " +
                'ln -s ../../../../outside-of-it out',
              security_risk: 'LOW',
              summary: 'rename a.txt, link to it, link out',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
    },
  ],
};

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function repoWithBase(dir: string): void {
  writeFileSync(join(dir, 'a.txt'), BASE);
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '-m', 'base');
}

const LOCAL = ['.git', 'a.txt', 'moved.txt', 'alias', 'out'];

describe("A remote conversation's rename and symlinks: review and apply (the real agent-server)", function () {
  this.timeout(180_000);
  let server: AgentServer | undefined;
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  let root: string;
  let id: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  before(async function () {
    const why = agentServerMissing();
    if (why) {
      console.log(`  skipped: ${why}`);
      this.skip();
    }
    root = workspaceRoot();
    assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
    server = await startAgentServer();
    const { service } = await logbook();
    await service.remote.setKey(server.url, server.key);
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'moves-'));
    repoWithBase(remoteDir);
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    llm = await scriptedModel(MOVES);
    const view = recordingWebview();
    controller = new ChatController(view.port, service, {
      info: () => undefined,
      warn: () => undefined,
      error: (m) => assert.fail(m),
    });
    view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    id = (await vscode.commands.executeCommand<string>(
      'logbook.startRemoteTask',
      server.url,
      'move',
      remoteDir,
    ))!;
    assert.ok(id, 'a remote conversation started');
    const finished = (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === 'finished';
    await until(() => view.posted.some(finished), 'the conversation to finish', 90_000);
  });
  after(async () => {
    controller?.dispose();
    await llm?.close();
    server?.child.stdin!.end();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    if (root) for (const f of LOCAL) rmSync(join(root, f), { recursive: true, force: true });
    if (remoteDir) rmSync(remoteDir, { recursive: true, force: true });
  });

  it("Review the Server's Changes shows the rename as one file and each symlink by its target", async () => {
    const n = await vscode.commands.executeCommand<number>('logbook.reviewRemoteChanges', id);
    assert.equal(n, 3);
    const side = (s: string, p: string) =>
      vscode.Uri.from({ scheme: 'logbook-remote', path: `/${id}/${s}/${p}` });
    assert.equal((await vscode.workspace.openTextDocument(side('head', 'a.txt'))).getText(), BASE);
    assert.equal(
      (await vscode.workspace.openTextDocument(side('now', 'moved.txt'))).getText(),
      `${BASE}line 5\n`,
    );
    assert.equal((await vscode.workspace.openTextDocument(side('now', 'alias'))).getText(), 'moved.txt');
    assert.equal(existsSync(join(root, 'moved.txt')), false, 'a review wrote a local file');
  });

  it('Apply renames a.txt here, makes the symlink inside the tree, refuses the one out of it and says why', async () => {
    repoWithBase(root);
    const r = await vscode.commands.executeCommand<{
      applied: string[];
      conflicts: { path: string; why: string }[];
    }>('logbook.applyRemoteChanges', id);
    assert.deepEqual(r?.applied.sort(), ['a.txt -> moved.txt', 'alias']);
    assert.deepEqual(
      r?.conflicts.map((c) => c.path),
      ['out'],
    );
    assert.match(
      r!.conflicts[0]!.why,
      /a symlink to \.\.\/\.\.\/\.\.\/\.\.\/outside-of-it, which leads outside the working tree/,
    );
    assert.equal(existsSync(join(root, 'a.txt')), false);
    assert.equal(readFileSync(join(root, 'moved.txt'), 'utf8'), `${BASE}line 5\n`);
    assert.ok(lstatSync(join(root, 'alias')).isSymbolicLink());
    assert.equal(readlinkSync(join(root, 'alias')), 'moved.txt');
    assert.equal(lstatSync(join(root, 'out'), { throwIfNoEntry: false }), undefined);
  });
});
