// An agent definition the agent wrote in the editor is held: its file edit creates
// .logbook/agents/helper.md (confirmations off, so nothing else stands in the way), and its delegate
// to that agent is refused with the reason the model reads. Logbook: Accept an Agent Definition,
// named as the notice's button names it, lets the next conversation delegate to it. Show Agents
// lists it as held until then.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
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
  arguments: { command: 'delegate', ids: ['hi'], agent_types: ['helper'], tasks: { hi: 'say hello' } },
});

describe('Agent definitions the agent wrote are held until the user accepts them', function () {
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

  it('refuses a delegation to it, then, once accepted, a new conversation delegates to it', async () => {
    rmSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true, force: true });
    mkdirSync(join(workspaceRoot(), '.logbook'), { recursive: true });
    llm = await scriptedModel({
      name: 'host-agent-trust',
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
          note: 'the next conversation, after the user accepted it',
          match: { lastRole: 'user', lastContentIncludes: 'use the helper' },
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

    const first = await chatTask('Please make a helper and delegate to it.');
    try {
      const waiting = () => first.session.conversation.awaitingConfirmation();
      await until(() => waiting().length > 0, 'the definition write waits for the user');
      await first.session.approve(waiting().map((a) => a.id));
      await until(() => llm!.remainingTurns() === 3, 'the refused delegation was answered');
      await first.session.settled();
      assert.ok(existsSync(helperFile()), 'the file edit wrote the definition');
      const events = await first.session.conversation.events();
      const answer = events.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
      assert.match(JSON.stringify(answer), new RegExp(NOT_ACCEPTED));
      assert.ok(
        !events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_start'),
        'no child started',
      );
    } finally {
      first.controller.dispose();
    }
    const held = readHeldDefinitions(process.env).get(helperFile());
    assert.ok(held, 'the definition is held');
    assert.equal(held.name, 'helper');
    // Show Agents lists it as held, not as an agent the main agent may use.
    const shown = await vscode.commands.executeCommand<{ agents: string[]; held: string[] }>(
      'logbook.showAgents',
      { pick: 'nothing' },
    );
    assert.deepEqual(shown.held, ['helper']);
    assert.ok(!shown.agents.includes('helper'));

    const accepted = await vscode.commands.executeCommand<boolean>(
      'logbook.acceptAgentDefinition',
      'helper',
      held.fingerprint,
    );
    assert.equal(accepted, true);
    assert.ok(!readHeldDefinitions(process.env).has(helperFile()), 'no longer held');

    const second = await chatTask('Now use the helper.');
    try {
      await until(() => llm!.remainingTurns() === 0, 'the helper ran and the parent answered');
      await second.session.settled();
      const events = await second.session.conversation.events();
      assert.ok(
        events.some(
          (e) =>
            e.kind === 'ConversationStateUpdateEvent' &&
            e.key === 'agent_start' &&
            (e.value as { agent_name?: string }).agent_name === 'helper',
        ),
        'the helper started as a child',
      );
    } finally {
      second.controller.dispose();
    }
  });
});
