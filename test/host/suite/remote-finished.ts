// The editor's remote-conversation suites start alike: the real agent-server, a repository for the
// conversation's workspace there (a base commit of some files), the scripted model, the chat
// listening, and a conversation started and run to its end; and they end alike.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { type AgentServer, agentServerMissing, extensionPath, startAgentServer } from './agent-server';
import { logbook, recordingWebview, scriptedModel, until, workspaceRoot } from './helpers';

/** git in `cwd`, which must succeed; its output. */
export function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A repository in `dir` on main, holding `files` in one commit. */
export function repoWithFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git(dir, 'init', '--quiet', '--initial-branch=main');
  git(dir, 'add', '--all');
  git(dir, 'commit', '--quiet', '-m', 'base');
}

export interface FinishedRemote {
  server: AgentServer;
  llm: ScriptedLlm;
  controller: ChatController;
  view: ReturnType<typeof recordingWebview>;
  /** The conversation's workspace on the server. */
  remoteDir: string;
  /** The window's folder, not a repository at the start. */
  root: string;
  id: string;
}

const cfg = () => vscode.workspace.getConfiguration('logbook');

type Service = Awaited<ReturnType<typeof logbook>>['service'];

/** The chat controller on `view`, which has said it is ready, as an opened chat would; an error fails the test. */
export function chatOn(view: ReturnType<typeof recordingWebview>, service: Service): ChatController {
  const controller = new ChatController(view.port, service, {
    info: () => undefined,
    warn: () => undefined,
    error: (m) => assert.fail(m),
  });
  view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
  return controller;
}

/** Start Remote Task: `task` in `remoteDir` on the server at `url`; the conversation's id. */
export async function startRemoteTask(url: string, task: string, remoteDir: string): Promise<string> {
  const id = await vscode.commands.executeCommand<string>('logbook.startRemoteTask', url, task, remoteDir);
  assert.ok(id, 'a remote conversation started');
  return id;
}

/**
 * A remote conversation run to its end with the scripted `scenario` (which may depend on the
 * server's workspace), confirmations off; skips the suite when the agent-server is not installed.
 */
export async function finishedRemote(
  suite: Mocha.Context,
  opts: {
    prefix: string;
    files: Record<string, string>;
    scenario: Scenario | ((remoteDir: string) => Scenario);
    task: string;
  },
): Promise<FinishedRemote> {
  const why = agentServerMissing();
  if (why) {
    console.log(`  skipped: ${why}`);
    suite.skip();
  }
  const root = workspaceRoot();
  assert.ok(!existsSync(join(root, '.git')), 'the workspace folder is already a repository');
  const server = await startAgentServer();
  const { service } = await logbook();
  await service.remote.setKey(server.url, server.key);
  const base = join(extensionPath(), 'test-results', 'remote');
  mkdirSync(base, { recursive: true });
  const remoteDir = mkdtempSync(join(base, opts.prefix));
  repoWithFiles(remoteDir, opts.files);
  await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  const llm = await scriptedModel(
    typeof opts.scenario === 'function' ? opts.scenario(remoteDir) : opts.scenario,
  );
  const view = recordingWebview();
  const controller = chatOn(view, service);
  const id = await startRemoteTask(server.url, opts.task, remoteDir);
  const finished = (m: HostMessage) =>
    m.type === 'header' && m.header.id === id && m.header.status === 'finished';
  await until(() => view.posted.some(finished), 'the conversation to finish', 90_000);
  return { server, llm, controller, view, remoteDir, root, id };
}

/** Ends what finishedRemote started, the settings it made and `local` (files of the window's folder). */
export async function endRemote(run: FinishedRemote | undefined, local: readonly string[]): Promise<void> {
  run?.controller.dispose();
  await run?.llm.close();
  run?.server.child.stdin!.end();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
  await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
  if (!agentServerMissing())
    for (const f of local) rmSync(join(workspaceRoot(), f), { recursive: true, force: true });
  if (run) rmSync(run.remoteDir, { recursive: true, force: true });
}
