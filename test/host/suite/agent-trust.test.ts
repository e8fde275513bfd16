// An agent definition the agent wrote in the editor is held: its file edit creates
// .logbook/agents/helper.md (confirmations off, so nothing else stands in the way), and its delegate
// to that agent is refused with the reason the model reads. Logbook: Accept an Agent Definition,
// named as the notice's button names it, lets the next conversation delegate to it. Show Agents
// lists it as held until then.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { readHeldDefinitions } from '../../../src/host/node/agents/held-definitions';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until } from './helpers';
import {
  heldHelperTurns,
  helperFile,
  helperStart,
  inDefaultLevel,
  NOT_ACCEPTED,
  withoutAgents,
  writeRefusedHelper,
} from './held-helper';

describe('Agent definitions the agent wrote are held until the user accepts them', function () {
  this.timeout(120_000);
  let llm: ScriptedLlm | undefined;
  inDefaultLevel(() => llm);

  it('refuses a delegation to it, then, once accepted, a new conversation delegates to it', async () => {
    withoutAgents();
    llm = await scriptedModel({
      name: 'host-agent-trust',
      turns: heldHelperTurns('use the helper', 'the next conversation, after the user accepted it'),
    });

    const first = await chatTask('Please make a helper and delegate to it.');
    try {
      await writeRefusedHelper(first, llm);
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
      assert.ok(helperStart(events) >= 0, 'the helper started as a child');
    } finally {
      second.controller.dispose();
    }
  });
});
