// Confirm from the chat the moment it shows the approval, many times over: a reply that updates the
// task list and edits a file in one go must run to its end every time after Confirm, never stay
// "Running" with the edit approved and not run.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { HostMessage } from '../../../src/protocol/messages';
import type { Scenario, ScriptedLlm } from '../../support/llm-server';
import { holdsWithin, logbook, recordingWebview, scriptedModel, until, workspaceRoot } from './helpers';

const ROUNDS = Number(process.env['LOGBOOK_CONFIRM_ROUNDS'] ?? 12);
const file = (i: number) => `race-${i}.txt`;

function round(i: number): Scenario['turns'] {
  return [
    {
      match: { lastRole: 'user' },
      reply: {
        toolCalls: [
          {
            id: `call_plan_${i}`,
            name: 'task_tracker',
            arguments: {
              command: 'plan',
              task_list: [
                { title: 'Write the file', notes: '', status: 'in_progress' },
                { title: 'Say so', notes: '', status: 'todo' },
              ],
            },
          },
          {
            id: `call_edit_${i}`,
            name: 'file_editor',
            arguments: {
              command: 'create',
              path: file(i),
              file_text: `round ${i}\n`,
              security_risk: 'MEDIUM',
              summary: 'Write the file',
            },
          },
        ],
      },
    },
    {
      match: { lastRole: 'tool' },
      reply: {
        toolCalls: [{ id: `call_finish_${i}`, name: 'finish', arguments: { message: `Done ${i}.` } }],
      },
    },
  ];
}

describe('Confirm from the chat, a task-list update and an edit in one reply', function () {
  this.timeout(ROUNDS * 40_000 + 60_000);
  let llm: ScriptedLlm | undefined;
  let controller: ChatController | undefined;
  const cfg = () => vscode.workspace.getConfiguration('logbook');

  afterEach(async () => {
    controller?.dispose();
    await llm?.close();
    await cfg().update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (let i = 0; i < ROUNDS; i++) rmSync(join(workspaceRoot(), file(i)), { force: true });
  });

  it(`runs the edit after Confirm every time (${ROUNDS} rounds)`, async () => {
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
    llm = await scriptedModel({
      name: 'confirm-race',
      turns: Array.from({ length: ROUNDS }, (_, i) => round(i)).flat(),
    });
    const { service } = await logbook();
    const view = recordingWebview();
    controller = new ChatController(view.port, service, {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    });
    view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
    const stuck: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const id = await vscode.commands.executeCommand<string>(
        'logbook.startTask',
        `Round ${i}: write the file`,
      );
      await service.setActive(id);
      // The approval as the chat gets it: Confirm is sent the moment it is shown.
      const pending = (m: HostMessage) =>
        (m.type === 'header' || m.type === 'conversation') &&
        m.header?.id === id &&
        m.header.pendingActionIds.length > 0;
      await until(() => view.posted.some(pending), `round ${i}: the approval to be shown`, 30_000);
      const shown = view.posted.find(pending) as Extract<HostMessage, { type: 'header' }>;
      view.send({ type: 'approve', conversationId: id, actionIds: shown.header.pendingActionIds });
      const session = await service.session(id);
      const done = await holdsWithin(() => session.conversation.status === 'finished', 20_000);
      if (!done || !existsSync(join(workspaceRoot(), file(i))))
        stuck.push(
          `round ${i}: status ${session.conversation.status}, pending ${JSON.stringify(session.conversation.state.pendingActions)}, approved ${JSON.stringify(session.conversation.state.approved)}`,
        );
      view.posted.length = 0;
    }
    assert.deepEqual(stuck, [], stuck.join('\n'));
  });

  it('runs the edit when Confirm comes while the run that asked is still ending', async () => {
    await cfg().update('confirmation.mode', 'always', vscode.ConfigurationTarget.Global);
    const rounds = Math.min(ROUNDS, 4);
    llm = await scriptedModel({
      name: 'confirm-early',
      turns: Array.from({ length: rounds }, (_, i) => round(i)).flat(),
    });
    const { service } = await logbook();
    const stuck: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const id = await vscode.commands.executeCommand<string>(
        'logbook.startTask',
        `Round ${i}: write the file`,
      );
      const session = await service.session(id);
      // The earliest a user could answer: as the log records that the run waits for them.
      const approve = () =>
        service.approve(
          id,
          session.conversation.awaitingConfirmation().map((a) => a.id),
        );
      const approved = new Promise<void>((resolve, reject) => {
        if (session.conversation.status === 'waiting_for_confirmation')
          return void approve().then(resolve, reject);
        const off = session.conversation.onEvent((e) => {
          if (e.kind !== 'ConversationStateUpdateEvent' || e.value !== 'waiting_for_confirmation') return;
          off();
          void approve().then(resolve, reject);
        });
      });
      await approved;
      const done = await holdsWithin(() => session.conversation.status === 'finished', 20_000);
      if (!done)
        stuck.push(
          `round ${i}: status ${session.conversation.status}, pending ${JSON.stringify(session.conversation.state.pendingActions)}, approved ${JSON.stringify(session.conversation.state.approved)}`,
        );
    }
    assert.deepEqual(stuck, [], stuck.join('\n'));
  });
});
