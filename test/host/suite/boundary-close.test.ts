// A definition accepted in the editor is used by the conversation that is open, from its next
// step, and its log records the acceptance: the agent writes .logbook/agents/helper.md
// (confirmations off), its delegate to that agent is refused, the user runs Logbook: Accept an
// Agent Definition, and the next message in the same conversation delegates to it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readHeldDefinitions } from '../../../src/host/node/agents/held-definitions';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until } from './helpers';
import {
  heldHelperTurns,
  helperFile,
  helperStart,
  inDefaultLevel,
  withoutAgents,
  writeRefusedHelper,
} from './held-helper';

describe('An agent definition accepted in the editor', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  inDefaultLevel(() => llm);

  it('is recorded in the open conversation, which delegates to it at its next message', async () => {
    withoutAgents();
    llm = await scriptedModel({
      name: 'host-accept-open',
      turns: heldHelperTurns('now use the helper', 'the same conversation, after the user accepted it'),
    });

    const chat = await chatTask('Please make a helper and delegate to it.');
    try {
      await writeRefusedHelper(chat, llm);
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
      const started = helperStart(events);
      assert.ok(started > events.indexOf(record), 'the helper started as a child after the acceptance');
    } finally {
      chat.controller.dispose();
    }
  });
});
