// A definition accepted in the editor is used by the conversation that is open, from its next
// step, and its log records the acceptance: the agent writes .logbook/agents/helper.md
// (confirmations off), its delegate to that agent is refused, the user runs Logbook: Accept an
// Agent Definition, and the next message in the same conversation delegates to it.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readHeldDefinitions } from '../../../src/host/node/agents/held-definitions';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

const HELPER =
  '---\nname: helper\ndescription: Says hello.\ntools: [think]\nmode: act\n---\nSay hello, then finish.\n';
const NOT_ACCEPTED = 'the user has not accepted this definition yet';

const delegateToHelper = (id: string) => ({
  id,
  name: 'delegate',
  arguments: {
    command: 'delegate',
    ids: [`hi_${id}`],
    agent_types: ['helper'],
    tasks: { [`hi_${id}`]: 'say hello' },
  },
});

describe('An agent definition accepted in the editor', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  const helperFile = () => join(workspaceRoot(), '.logbook', 'agents', 'helper.md');
  before(async () => {
    await vscode.workspace
      .getConfiguration('logbook')
      // The default level: the definition's write asks (a file that runs later) and the test says
      // yes; autopilot would refuse it. Only the hold stands between the agent and its own agent.
      .update('confirmation.mode', 'risky', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await llm?.close();
    await vscode.workspace
      .getConfiguration('logbook')
      .update('confirmation.mode', undefined, vscode.ConfigurationTarget.Global);
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('is recorded in the open conversation, which delegates to it at its next message', async () => {
    rmSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true, force: true });
    mkdirSync(join(workspaceRoot(), '.logbook'), { recursive: true });
    llm = await scriptedModel({
      name: 'host-accept-open',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'make a helper' },
          reply: {
            toolCalls: [
              {
                id: 'c_make',
                name: 'file_editor',
                arguments: {
                  command: 'create',
                  path: '.logbook/agents/helper.md',
                  file_text: HELPER,
                  security_risk: 'LOW',
                  summary: 'a helper agent',
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'helper.md' },
          reply: { toolCalls: [delegateToHelper('c_held')] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: NOT_ACCEPTED },
          reply: { content: 'The helper is not accepted yet.' },
        },
        {
          note: 'the same conversation, after the user accepted it',
          match: { lastRole: 'user', lastContentIncludes: 'now use the helper' },
          reply: { toolCalls: [delegateToHelper('c_ok')] },
        },
        {
          note: 'the helper runs',
          match: { lastRole: 'user', lastContentIncludes: 'say hello' },
          reply: { toolCalls: [{ id: 'c_fin', name: 'finish', arguments: { message: 'hello' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'hello' },
          reply: { content: 'The helper said hello.' },
        },
      ],
    });

    const chat = await chatTask('Please make a helper and delegate to it.');
    try {
      const waiting = () => chat.session.conversation.awaitingConfirmation();
      await until(() => waiting().length > 0, 'the definition write waits for the user');
      await chat.session.approve(waiting().map((a) => a.id));
      await until(() => llm!.remainingTurns() === 3, 'the refused delegation was answered');
      await chat.session.settled();
      const held = readHeldDefinitions(process.env).get(helperFile());
      assert.ok(held, 'the definition is held');
      const accepted = await vscode.commands.executeCommand<boolean>(
        'logbook.acceptAgentDefinition',
        'helper',
        held.fingerprint,
      );
      assert.equal(accepted, true);
      let events = await chat.session.conversation.events();
      const record = events.find(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_definition_accepted',
      );
      assert.ok(record, 'the open conversation records the acceptance');
      const v = (record as { value: { name: string; fingerprint: string; accepted_at: string } }).value;
      assert.equal(v.name, 'helper');
      assert.equal(v.fingerprint, held.fingerprint);
      assert.ok(!Number.isNaN(Date.parse(v.accepted_at)));

      chat.view.send({
        type: 'sendMessage',
        text: 'Good, now use the helper.',
        attachActiveFile: false,
        attachSelection: false,
      });
      await until(() => llm!.remainingTurns() === 0, 'the helper ran and the parent answered');
      await chat.session.settled();
      events = await chat.session.conversation.events();
      const started = events.findIndex(
        (e) =>
          e.kind === 'ConversationStateUpdateEvent' &&
          e.key === 'agent_start' &&
          (e.value as { agent_name?: string }).agent_name === 'helper',
      );
      assert.ok(started > events.indexOf(record), 'the helper started as a child after the acceptance');
    } finally {
      chat.controller.dispose();
    }
  });
});
