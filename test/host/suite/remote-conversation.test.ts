// A task run on the real OpenHands agent-server from the editor (Logbook: Start Agent Task on
// Server…): its events reach the chat as they arrive, a held command shows the server's rating and
// Logbook's own, Confirm runs it on the server, Reject sends the reason the model reads, and the
// log is the signed one `logbook show` reads. The server's model calls go to the scripted model.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { spawn } from 'node:child_process';
import { extensionPath, useAgentServer } from './agent-server';
import { chatOn, startRemoteTask } from './remote-finished';
import { logbook, recordingWebview, scriptedModel, until } from './helpers';

const WRITE_THEN_FINISH: Scenario = {
  name: 'remote-chat',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        content: 'I will write the file.',
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: {
              command: 'echo remote-ok > out.txt',
              security_risk: 'LOW',
              summary: 'write out.txt',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done here.' } }] },
    },
  ],
};

describe('A remote conversation in the chat (the real agent-server)', function () {
  this.timeout(180_000);
  const server = useAgentServer();
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'chat-'));
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
    llm = await scriptedModel(WRITE_THEN_FINISH);
  });
  afterEach(async () => {
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(remoteDir, { recursive: true, force: true });
  });

  /** Starts the task from the command, with the chat open on it; resolves once the command waits. */
  async function startHeld(task: string) {
    const { service } = await logbook();
    const view = recordingWebview();
    controller = chatOn(view, service);
    const id = await startRemoteTask(server().url, task, remoteDir);
    const held = (m: HostMessage) =>
      (m.type === 'header' || m.type === 'conversation') &&
      m.header?.id === id &&
      m.header.pendingActionIds.length > 0;
    await until(() => view.posted.some(held), 'the held command in the chat', 90_000);
    const header = (view.posted.find(held) as Extract<HostMessage, { type: 'header' }>).header;
    const shown = view.posted.flatMap((m) =>
      m.type === 'events' && m.conversationId === id ? m.events : [],
    );
    return { service, view, id, header, shown };
  }

  it('shows the events live, both ratings on the held command; Confirm runs it on the server; show reads the log', async () => {
    const { service, view, id, header, shown } = await startHeld('write out.txt');
    assert.deepEqual(header.model, { name: server().url, provider: 'remote' });
    // The chat got the server's events as a local conversation's: the task and the held action.
    assert.ok(
      shown.some((e) => e.event.kind === 'MessageEvent' && e.event.source === 'user'),
      'the task shown',
    );
    const action = shown.find((e) => e.event.id === header.pendingActionIds[0]);
    assert.ok(action, 'the held action reached the chat');
    // The server's own rating rides on the action; Logbook's, with its reason, on the card's line.
    assert.equal(action.event.security_risk, 'UNKNOWN');
    const risk = header.pendingRisks?.[0];
    assert.equal(risk?.risk, 'MEDIUM');
    assert.match(risk?.reason ?? '', /writes to out\.txt/);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'nothing ran before Confirm');
    view.send({ type: 'approve', conversationId: id, actionIds: header.pendingActionIds });
    const finished = (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === 'finished';
    await until(() => view.posted.some(finished), 'the conversation to finish', 90_000);
    assert.equal(readFileSync(join(remoteDir, 'out.txt'), 'utf8'), 'remote-ok\n');
    // The list shows it; the log is the CLI's: logbook show reads it, remote.json beside it.
    await until(() => service.list().some((e) => e.id === id && e.status === 'finished'), 'the list entry');
    const dir = join(service.root, id);
    assert.equal(JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')).server, server().url);
    const show = await cli(['show', dir, '--json']);
    assert.equal(show.code, 0, show.stderr);
    const shownByCli = JSON.parse(show.stdout) as { status: string };
    assert.equal(shownByCli.status, 'finished');
    assert.ok(
      !readFileSync(join(dir, 'remote.json'), 'utf8').includes(server().key),
      'no key beside the log',
    );
    // Every event once, in the chat as in the log; the window's Verify vouches for what was received.
    const ids = view.posted.flatMap((m) => (m.type === 'events' && m.conversationId === id ? m.events : []));
    assert.equal(new Set(ids.map((e) => e.event.id)).size, ids.length, 'an event shown twice');
    assert.equal((await service.verify(id)).verdict, 'verified');
  });

  it('Reject sends the reason the model reads; nothing runs', async () => {
    const { view, id, header } = await startHeld('write out.txt');
    view.send({
      type: 'reject',
      conversationId: id,
      actionIds: header.pendingActionIds,
      reason: 'not this folder',
    });
    const finished = (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === 'finished';
    await until(() => view.posted.some(finished), 'the conversation to go on and finish', 90_000);
    assert.ok(
      llm!.requests.some((q) => JSON.stringify(q).includes('not this folder')),
      'the model never read the reason',
    );
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false);
    // The stream's last events (taken from the server's list once it stops) follow the status.
    const rejected = () =>
      view.posted.some(
        (m) => m.type === 'events' && m.events.some((e) => e.event.kind === 'UserRejectObservation'),
      );
    await until(rejected, 'the rejection in the chat', 10_000);
  });
});

/** The extension's own CLI on a folder, its output collected. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(extensionPath(), 'dist', 'cli.js'), ...args], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.once('close', (code) => done({ code: code ?? 1, stdout, stderr })));
}
