// A handoff in the editor takes the new agent's mode: the chat's header (which the Plan/Act toggle
// reads) says plan once a plan agent took over, and act again when an act agent takes over from it;
// the log records both as agent_mode updates, signed by the agent that took over. But never out of
// the plan mode the user chose: an act agent then takes over in plan, and the chat says why.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedLlm } from '../../support/llm-server';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

describe('Sub-agents: a handoff switches Plan/Act', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the toggle follows: plan for a plan agent, act again for an act agent', async () => {
    const dir = join(workspaceRoot(), '.logbook', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'reader.md'),
      '---\nname: reader\ndescription: Reads only.\ntools: [grep, think]\nmode: plan\n---\nOnly read.\n',
    );
    writeFileSync(
      join(dir, 'writer.md'),
      '---\nname: writer\ndescription: Writes.\ntools: [think]\nmode: act\n---\nWrite.\n',
    );
    llm = await scriptedModel({
      name: 'host-handoff-mode',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'plan first' },
          reply: { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'reader' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in plan mode' },
          reply: { content: 'Here is the plan.' },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: 'now build' },
          reply: { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'writer' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in act mode' },
          reply: { content: 'Built.' },
        },
      ],
    });
    const { view, controller, session, headers } = await chatTask('Let us plan first.');
    try {
      const modes = () => headers().map((h) => h.mode ?? 'act');
      await until(() => llm!.remainingTurns() === 2, 'the reader answered');
      await session.settled();
      await until(() => modes().at(-1) === 'plan', 'the header says plan');
      assert.equal(session.header().mode, 'plan');
      assert.equal(modes()[0], 'act', 'act before the handoff');

      view.send({
        type: 'sendMessage',
        text: 'Good, now build it.',
        attachActiveFile: false,
        attachSelection: false,
      });
      await until(() => llm!.remainingTurns() === 0, 'the writer answered');
      await session.settled();
      await until(() => modes().at(-1) === 'act', 'the header says act again');
      assert.equal(session.conversation.state.mode, 'act');
      const switches = (await session.conversation.events()).flatMap((e) =>
        e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_mode'
          ? [[e.value, (e as { agent_name?: string }).agent_name]]
          : [],
      );
      assert.deepEqual(switches, [
        ['plan', 'reader'],
        ['act', 'writer'],
      ]);
    } finally {
      controller.dispose();
    }
  });

  it('keeps the plan mode the user chose when an act agent takes over, and records why', async () => {
    const dir = join(workspaceRoot(), '.logbook', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'writer.md'),
      '---\nname: writer\ndescription: Writes.\ntools: [file_editor, think]\nmode: act\n---\nWrite.\n',
    );
    llm = await scriptedModel({
      name: 'host-handoff-plan-kept',
      turns: [
        { match: { lastRole: 'user', lastContentIncludes: 'look first' }, reply: { content: 'Looked.' } },
        {
          match: { lastRole: 'user', lastContentIncludes: 'now build' },
          reply: { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'writer' } }] },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'in plan mode' },
          reply: { content: 'Only a plan, then.' },
        },
      ],
    });
    const { view, controller, session } = await chatTask('Let us look first.');
    try {
      await until(() => llm!.remainingTurns() === 2, 'the first answer');
      await session.settled();
      await session.setMode('plan');
      view.send({
        type: 'sendMessage',
        text: 'Good, now build it.',
        attachActiveFile: false,
        attachSelection: false,
      });
      await until(() => llm!.remainingTurns() === 0, 'the writer answered');
      await session.settled();
      assert.equal(session.conversation.state.mode, 'plan');
      assert.equal(session.header().mode, 'plan');
      const events = await session.conversation.events();
      const start = events.find(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_start',
      ) as { value?: { narrowed?: string[] } } | undefined;
      assert.deepEqual(start?.value?.narrowed, [
        'asked for act mode; the conversation is in plan mode, so it runs in plan mode',
      ]);
    } finally {
      controller.dispose();
    }
  });
});
