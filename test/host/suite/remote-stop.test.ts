// Stop, Pause and Resume of a remote conversation from the chat, against the real agent-server:
// Stop is the server's /interrupt (the model call in flight is cancelled: an InterruptEvent, where
// a pause waits for the call and records a PauseEvent), Pause is /pause, Resume /run; every event
// reaches the chat once. Logbook: Stop, Pause and Resume from the palette do the same.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { extensionPath, useAgentServer } from './agent-server';
import { chatOn, startRemoteTask } from './remote-finished';
import { logbook, recordingWebview, scriptedModel, until } from './helpers';

const finish = { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] };

/** The first model call waits for the test to release `hold`; then a command, then finish. */
function heldFirst(hold: string): Scenario {
  return {
    name: `remote-${hold}`,
    turns: [
      {
        match: { hasTools: true, lastRole: 'user' },
        reply: {
          holdUntilReleased: hold,
          content: 'I will write p.txt.',
          toolCalls: [
            {
              id: 'call_write',
              name: 'terminal',
              arguments: { command: 'echo one >> p.txt', security_risk: 'LOW', summary: 'write p.txt' },
            },
          ],
        },
      },
    ],
    fallback: finish,
  };
}

/** An event's kind as the log keeps it (a kind Logbook does not model is kept opaque, named). */
const kindOf = (e: Record<string, unknown>) => (e.kind === 'OpaqueEvent' ? e.original_kind : e.kind);

describe('A remote conversation: Stop, Pause and Resume from the chat (the real agent-server)', function () {
  this.timeout(180_000);
  const server = useAgentServer();
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'stop-'));
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(remoteDir, { recursive: true, force: true });
  });

  /** Starts the task with the chat open on it; resolves once the first model call waits. */
  async function startWaiting(hold: string) {
    llm = await scriptedModel(heldFirst(hold));
    const { service } = await logbook();
    const view = recordingWebview();
    controller = chatOn(view, service);
    const id = await startRemoteTask(server().url, 'write p.txt', remoteDir);
    await until(() => llm!.completionBodies().length > 0, 'the first model call', 90_000);
    const shown = () =>
      view.posted.flatMap((m) => (m.type === 'events' && m.conversationId === id ? m.events : []));
    const status = (s: string) => (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === s;
    return { service, view, id, shown, status };
  }

  it('Stop cancels the model call in flight (/interrupt), the conversation pauses there; Resume runs it on', async () => {
    const { service, view, id, shown, status } = await startWaiting('stop');
    view.send({ type: 'stop', conversationId: id });
    // The held call is never released: only an interrupt ends the step.
    await until(
      () => shown().some((e) => kindOf(e.event) === 'InterruptEvent'),
      'the InterruptEvent in the chat',
      30_000,
    );
    const remote = (await service.remote.of(id))!;
    await until(() => !remote.busy, 'the stream to end', 30_000);
    assert.equal(remote.status, 'paused');
    assert.equal(existsSync(join(remoteDir, 'p.txt')), false, 'the cancelled step ran its command');
    assert.ok(!shown().some((e) => kindOf(e.event) === 'PauseEvent'), 'Stop paused instead of interrupting');
    llm!.release('stop');
    view.send({ type: 'resume', conversationId: id });
    await until(
      () => view.posted.some(status('finished')),
      'the conversation to finish after Resume',
      90_000,
    );
    const ids = shown().map((e) => e.event.id);
    assert.equal(new Set(ids).size, ids.length, 'an event shown twice');
  });

  it("Logbook: Stop from the palette is the server's /interrupt, and Logbook: Resume its /run, as the chat's buttons", async () => {
    const { service, view, id, shown, status } = await startWaiting('palette-stop');
    assert.equal(service.activeId, id, 'the remote conversation is the one open');
    // As from the palette: no argument, the conversation open in the chat.
    await vscode.commands.executeCommand('logbook.stop');
    await until(
      () => shown().some((e) => kindOf(e.event) === 'InterruptEvent'),
      'the InterruptEvent in the chat',
      30_000,
    );
    const remote = (await service.remote.of(id))!;
    await until(() => !remote.busy, 'the stream to end', 30_000);
    assert.equal(remote.status, 'paused');
    assert.equal(existsSync(join(remoteDir, 'p.txt')), false, 'the cancelled step ran its command');
    llm!.release('palette-stop');
    await vscode.commands.executeCommand('logbook.resume');
    await until(
      () => view.posted.some(status('finished')),
      'the conversation to finish after Logbook: Resume',
      90_000,
    );
    const ids = shown().map((e) => e.event.id);
    assert.equal(new Set(ids).size, ids.length, 'an event shown twice');
  });

  it("Logbook: Pause from the palette is the server's /pause (a PauseEvent)", async () => {
    const { view, shown, status } = await startWaiting('palette-pause');
    await vscode.commands.executeCommand('logbook.pause');
    await until(
      () => shown().some((e) => kindOf(e.event) === 'PauseEvent'),
      'the PauseEvent in the chat',
      30_000,
    );
    llm!.release('palette-pause');
    await until(() => view.posted.some(status('paused')), 'the conversation paused', 30_000);
    assert.ok(!shown().some((e) => kindOf(e.event) === 'InterruptEvent'), 'Pause interrupted the model call');
  });

  it('Pause lets the step in flight end and pauses (a PauseEvent); Resume runs it to the end', async () => {
    const { view, id, shown, status } = await startWaiting('pause');
    view.send({ type: 'pause', conversationId: id });
    await until(
      () => shown().some((e) => kindOf(e.event) === 'PauseEvent'),
      'the PauseEvent in the chat',
      30_000,
    );
    assert.ok(!shown().some((e) => kindOf(e.event) === 'InterruptEvent'), 'Pause interrupted the model call');
    llm!.release('pause');
    await until(() => view.posted.some(status('paused')), 'the conversation paused', 30_000);
    view.send({ type: 'resume', conversationId: id });
    await until(
      () => view.posted.some(status('finished')),
      'the conversation to finish after Resume',
      90_000,
    );
    assert.match(readFileSync(join(remoteDir, 'p.txt'), 'utf8'), /^one\n/);
    const ids = shown().map((e) => e.event.id);
    assert.equal(new Set(ids).size, ids.length, 'an event shown twice');
  });
});
