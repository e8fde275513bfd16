// A remote agent's reply streams into the chat, against the real agent-server: the server's
// streaming deltas reach the chat as a local model's stream does (the `stream` message the
// webview shows as the live reply) before the reply's final event, which replaces them; none of
// them is an event of the conversation or of its log.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { extensionPath, useAgentServer } from './agent-server';
import { chatOn, startRemoteTask } from './remote-finished';
import { logbook, recordingWebview, scriptedModel, until } from './helpers';

const REPLY = 'Reading the task first, then writing s.txt, one small piece of this reply at a time.';

/** A reply streamed four characters every 60 ms with its command, then finish. */
const SLOW_REPLY: Scenario = {
  name: 'remote-stream-chat',
  turns: [
    {
      match: { hasTools: true, lastRole: 'user' },
      reply: {
        content: REPLY,
        chunkSize: 4,
        delayMs: 60,
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: { command: 'echo streamed > s.txt', security_risk: 'LOW', summary: 'write s.txt' },
          },
        ],
      },
    },
  ],
  fallback: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
};

describe('A remote conversation: the reply streams into the chat (the real agent-server)', function () {
  this.timeout(180_000);
  const server = useAgentServer();
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'stream-'));
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(remoteDir, { recursive: true, force: true });
  });

  it("shows the reply's text while the server streams it, before its final event, and logs none of it", async () => {
    llm = await scriptedModel(SLOW_REPLY);
    const { service } = await logbook();
    const view = recordingWebview();
    controller = chatOn(view, service);
    const id = await startRemoteTask(server().url, 'write s.txt', remoteDir);
    const finished = (m: HostMessage) =>
      m.type === 'header' && m.header.id === id && m.header.status === 'finished';
    await until(() => view.posted.some(finished), 'the conversation to finish', 120_000);

    const mine = view.posted.filter(
      (m) => (m.type === 'stream' || m.type === 'events') && m.conversationId === id,
    );
    // The first event of the agent's: the reply's final form (its action, with the reply's text).
    const final = mine.findIndex(
      (m) => m.type === 'events' && m.events.some((e) => e.event.kind === 'ActionEvent'),
    );
    assert.ok(final > 0, 'the reply reached the chat');
    const partial = mine
      .slice(0, final)
      .map((m) => (m.type === 'stream' && m.delta.type === 'text' ? m.delta.text : ''))
      .join('');
    assert.equal(partial, REPLY, 'the reply shown in pieces before its final event');
    assert.ok(
      mine.slice(0, final).filter((m) => m.type === 'stream').length > 1,
      'the reply came in one piece, not as it was written',
    );
    const shown = mine.flatMap((m) => (m.type === 'events' ? m.events : []));
    assert.ok(!shown.some((e) => /Streaming|Delta/.test(String(e.event.kind))), 'a delta shown as an event');
    const remote = (await service.remote.of(id))!;
    const logged = await remote.eventsAfter(-1);
    const inLog = new Set(logged.map((e) => e.event.id));
    assert.ok(
      shown.every((e) => inLog.has(e.event.id)),
      'the chat showed an event the log does not hold',
    );
    assert.ok(!logged.some((e) => /Streaming|Delta/.test(String(e.event.kind))), 'a delta in the log');
  });
});
