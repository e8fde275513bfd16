// Plan mode in the real extension host: with logbook.agent.defaultMode = plan, a message from the
// chat starts a conversation that only reads (its write is refused) and answers with a plan; the
// chat's "Approve plan" (as the webview sends it, edited) switches the same conversation to act
// mode, and the agent then carries the plan out in the workspace.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, recordingWebview, scriptedModel, until, workspaceRoot } from './helpers';

const create = {
  id: 'call_create',
  name: 'file_editor',
  arguments: {
    command: 'create',
    path: 'src/multiply.js',
    file_text: 'module.exports = (a, b) => a * b;\n',
    security_risk: 'LOW',
    summary: 'add multiply',
  },
};

describe('Plan mode from the chat', () => {
  let llm: ScriptedLlm | undefined;
  const file = () => join(workspaceRoot(), 'src', 'multiply.js');
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    await vscode.workspace
      .getConfiguration('logbook')
      .update('agent.defaultMode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(file(), { force: true });
  });

  it('plans without writing, then the approved plan runs in act mode in the same conversation', async () => {
    llm = await scriptedModel({
      name: 'host-plan-mode',
      turns: [
        { match: { lastRole: 'user', lastContentIncludes: 'multiply' }, reply: { toolCalls: [create] } },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'plan mode' },
          reply: {
            toolCalls: [
              {
                id: 'call_plan',
                name: 'task_tracker',
                arguments: {
                  command: 'plan',
                  task_list: [
                    { title: 'Create src/multiply.js', notes: 'one exported function', status: 'todo' },
                    { title: 'Check it loads', notes: '', status: 'todo' },
                  ],
                },
              },
            ],
          },
        },
        { match: { lastRole: 'tool' }, reply: { content: 'That is my plan.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'Create src/multiply.js (arrow function)' },
          reply: { toolCalls: [create] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'multiply.js' },
          reply: { toolCalls: [{ id: 'call_finish', name: 'finish', arguments: { message: 'Done.' } }] },
        },
      ],
    });
    await vscode.workspace
      .getConfiguration('logbook')
      .update('agent.defaultMode', 'plan', vscode.ConfigurationTarget.Global);
    const { service } = await logbook();
    await service.setActive(undefined);
    const view = recordingWebview();
    const log = {
      info: () => undefined,
      warn: (m: string) => assert.fail(m),
      error: (m: string) => assert.fail(m),
    };
    const controller = new ChatController(view.port, service, log);
    try {
      view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await until(() => view.posted.some((m) => m.type === 'conversation'), 'the empty state');
      const empty = view.posted.find((m) => m.type === 'conversation');
      assert.deepEqual(empty, { type: 'conversation', header: null, defaultMode: 'plan' });

      view.send({
        type: 'sendMessage',
        text: 'Add a multiply function',
        attachActiveFile: false,
        attachSelection: false,
      });
      await until(() => service.activeId !== undefined, 'a new conversation');
      const session = await service.session(service.activeId!);
      await until(() => session.conversation.state.tasks.length === 2, 'the plan');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.equal(session.conversation.state.mode, 'plan');
      assert.ok(!existsSync(file()), 'plan mode wrote nothing');
      const refused = (await session.conversation.events()).filter((e) => e.kind === 'AgentErrorEvent');
      assert.equal(refused.length, 1);
      assert.match(JSON.stringify(refused[0]), /plan mode/);
      await until(
        () =>
          view.posted.some(
            (m) => m.type === 'header' && m.header.mode === 'plan' && m.header.status === 'finished',
          ),
        'a header in plan mode',
      );
      const plan = view.posted
        .flatMap((m) => (m.type === 'events' ? m.events : []))
        .find((e) => e.event.kind === 'ActionEvent' && e.event.tool_name === 'task_tracker');
      assert.ok(plan, 'the chat got the plan to show as a checklist');

      // "Approve plan" with the first step edited, as the checklist card sends it.
      view.send({
        type: 'approvePlan',
        conversationId: session.id,
        tasks: [
          { title: 'Create src/multiply.js (arrow function)', notes: 'one exported function' },
          { title: 'Check it loads', notes: '' },
        ],
      });
      await until(() => session.conversation.state.mode === 'act', 'act mode');
      await until(() => existsSync(file()), 'the planned file');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.match(readFileSync(file(), 'utf8'), /a \* b/);
      assert.equal(service.activeId, session.id, 'the same conversation carried the plan out');
      await until(
        () => view.posted.some((m) => m.type === 'header' && m.header.mode === 'act'),
        'a header in act mode',
      );
      assert.equal(llm.remainingTurns(), 0);
    } finally {
      controller.dispose();
    }
  });
});
