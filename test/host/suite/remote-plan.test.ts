// Plan mode on a remote conversation in the chat (the real agent-server): the composer's Plan
// choice makes the server hold every action and Logbook reject what writes or runs, even with
// confirmation off; the model reads why, and nothing is written on the server's side.
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

const FINISH_THEN_WRITE: Scenario = {
  name: 'remote-chat-plan',
  turns: [
    {
      match: { lastRole: 'user', lastContentIncludes: 'look around' },
      reply: { toolCalls: [{ id: 'call_first', name: 'finish', arguments: { message: 'Looked.' } }] },
    },
    {
      match: { lastRole: 'user', lastContentIncludes: 'now plan' },
      reply: {
        toolCalls: [
          {
            id: 'call_write',
            name: 'terminal',
            arguments: { command: 'echo planned > out.txt', security_risk: 'LOW', summary: 'write' },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool', toolResultIncludes: 'Refused by Logbook' },
      reply: { toolCalls: [{ id: 'call_done', name: 'finish', arguments: { message: 'Planned.' } }] },
    },
  ],
};

describe('A remote conversation in plan mode in the chat (the real agent-server)', function () {
  this.timeout(180_000);
  const server = useAgentServer();
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  let remoteDir: string;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  beforeEach(async () => {
    const base = join(extensionPath(), 'test-results', 'remote');
    mkdirSync(base, { recursive: true });
    remoteDir = mkdtempSync(join(base, 'chat-plan-'));
    // Confirmation off: plan mode must hold without it.
    await cfg().update('confirmation.mode', 'never', vscode.ConfigurationTarget.Global);
    llm = await scriptedModel(FINISH_THEN_WRITE);
  });
  afterEach(async () => {
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await cfg().update('remote.servers', undefined, vscode.ConfigurationTarget.Global);
    rmSync(remoteDir, { recursive: true, force: true });
  });

  it('a message sent in Plan mode: the write is rejected with the reason the model reads, nothing runs', async () => {
    const { service } = await logbook();
    const view = recordingWebview();
    controller = chatOn(view, service);
    const id = await startRemoteTask(server().url, 'look around', remoteDir);
    const finished = (n: number) => () =>
      view.posted.filter(
        (m: HostMessage) => m.type === 'header' && m.header.id === id && m.header.status === 'finished',
      ).length >= n;
    await until(finished(1), 'the first task to finish', 90_000);
    const before = view.posted.length;
    view.send({
      type: 'sendMessage',
      text: 'now plan the change',
      attachActiveFile: false,
      attachSelection: false,
      mode: 'plan',
    });
    // The header says plan at once (and still the first task's finished): wait for the rejection,
    // then for the turn to finish after it.
    const rejectedAt = () =>
      view.posted.findIndex(
        (m, i) =>
          i >= before &&
          m.type === 'events' &&
          m.events.some((e) => e.event.kind === 'UserRejectObservation'),
      );
    await until(() => rejectedAt() >= 0, 'the rejection in the chat', 90_000);
    const planned = () =>
      view.posted
        .slice(rejectedAt())
        .some(
          (m) =>
            m.type === 'header' &&
            m.header.id === id &&
            m.header.mode === 'plan' &&
            m.header.status === 'finished',
        );
    await until(planned, 'the plan-mode turn to finish', 90_000);
    assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'the write ran on the server');
    assert.ok(
      llm!.requests.some((q) =>
        JSON.stringify(q).includes('Refused by Logbook: the conversation is in plan mode'),
      ),
      'the model never read why',
    );
    const dir = join(service.root, id);
    assert.equal(JSON.parse(readFileSync(join(dir, 'remote.json'), 'utf8')).mode, 'plan');
  });

  it('a task started with logbook.agent.defaultMode plan runs in plan mode: its write is rejected', async () => {
    await cfg().update('agent.defaultMode', 'plan', vscode.ConfigurationTarget.Global);
    try {
      await llm?.close();
      llm = await scriptedModel({
        name: 'remote-chat-default-plan',
        turns: FINISH_THEN_WRITE.turns.slice(1),
      });
      const { service } = await logbook();
      const view = recordingWebview();
      controller = chatOn(view, service);
      const id = await startRemoteTask(server().url, 'now plan the change', remoteDir);
      await until(
        () =>
          view.posted.some(
            (m) =>
              m.type === 'header' &&
              m.header.id === id &&
              m.header.mode === 'plan' &&
              m.header.status === 'finished',
          ),
        'the plan-mode task to finish',
        90_000,
      );
      assert.equal(existsSync(join(remoteDir, 'out.txt')), false, 'the write ran on the server');
      assert.ok(
        llm.requests.some((q) => JSON.stringify(q).includes('Refused by Logbook')),
        'the model never read why',
      );
    } finally {
      await cfg().update('agent.defaultMode', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
