// Sub-agents in the real extension host: the main agent delegates to the built-in explorer, the
// explorer's read outside the workspace waits for the user, the chat gets the child under its
// delegation (header and events) and confirms the child's action as it would the parent's; the
// child's answer comes back to the parent. Every event carries its agent and branch, and the child
// signs its own log with its own key.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { agentTree } from '../../../src/core/agents/agent-tree';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import { delegateToExplorerTurns, EXPLORER_TASK } from '../../support/scenarios/delegate-to-explorer';
import { chatTask, scriptedModel, until } from './helpers';

type Header = Extract<HostMessage, { type: 'header' }>['header'];

describe('Sub-agents from the chat', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('delegates to the explorer; the child waits, is confirmed from the chat, and answers the parent', async () => {
    llm = await scriptedModel({
      name: 'host-sub-agents',
      turns: delegateToExplorerTurns(),
    });
    const { service, view, controller, session, warned, headers } = await chatTask(
      'Where is the host name kept?',
    );
    try {
      const waiting = (): Header | undefined =>
        headers().find((h) => h.children?.some((c) => c.pendingActionIds.length > 0));
      await until(() => waiting() !== undefined, 'the explorer waiting in the header');
      const child = waiting()!.children![0]!;
      assert.equal(child.agentName, 'explore');
      assert.equal(child.branch, 'main.explore.1');
      assert.equal(child.task, EXPLORER_TASK);
      await until(() => session.conversation.status === 'waiting_for_confirmation', 'the parent waits too');
      // The parent's own batch is empty: what waits is the child's.
      assert.deepEqual(session.header().pendingActionIds, []);
      const delegation = (await session.conversation.events()).find(
        (e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate',
      )!;
      assert.equal(child.parentEventId, delegation.id);

      // The child's steps reached the chat, under the parent's id.
      const childEvents = () =>
        view.posted.flatMap((m) =>
          m.type === 'childEvents' && m.childId === child.conversationId ? m.events : [],
        );
      await until(
        () =>
          childEvents().some(
            (e) => e.event.kind === 'ActionEvent' && e.event.id === child.pendingActionIds[0],
          ),
        "the child's waiting action in the chat",
      );
      const seqs = childEvents().map((e) => e.seq);
      assert.equal(new Set(seqs).size, seqs.length, 'each child event sent once');

      // A forged batch is refused; the child's exact batch is confirmed from the chat.
      view.send({ type: 'approve', conversationId: session.id, actionIds: ['not-pending'] });
      assert.deepEqual(warned, [
        'Chat view: refused "approve": the action ids are not exactly the pending batch',
      ]);
      view.send({ type: 'approve', conversationId: session.id, actionIds: child.pendingActionIds });
      await until(() => session.conversation.status === 'finished', 'the parent finishes');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const events = await session.conversation.events();
      const observation = events.find((e) => e.kind === 'ObservationEvent' && e.action_id === delegation.id);
      assert.ok(observation, 'the delegation got its observation');
      assert.match(JSON.stringify(observation), /The host name was read\./);
      for (const e of events)
        assert.deepEqual(
          [(e as { agent_name?: string }).agent_name, (e as { branch?: string }).branch],
          ['main', 'main'],
          e.kind,
        );
      const tree = agentTree(events);
      assert.equal(tree.children.length, 1);
      assert.equal(tree.children[0]!.end?.status, 'finished');
      assert.match(String(tree.children[0]!.did), /^did:key:z6Mk/);

      // The child's own log: its first event names the parent, every event its branch; its action ran.
      const childEventsAll = await service.childEventsAfter(session.id, child.conversationId, -1);
      const first = childEventsAll[0]!.event as { key?: string; value?: { parent_event_id?: string } };
      assert.equal(first.key, 'agent_start');
      assert.equal(first.value?.parent_event_id, delegation.id);
      for (const e of childEventsAll) assert.equal(e.event.branch, 'main.explore.1');
      assert.ok(
        childEventsAll.some(
          (e) => e.event.kind === 'ObservationEvent' && e.event.tool_name === 'file_editor',
        ),
        "the confirmed action ran in the child's log",
      );
      assert.match(child.conversationId, /^[0-9a-f-]{36}$/);
      assert.equal(tree.children[0]!.folder, join('agents', child.conversationId).replace(/\\/g, '/'));
      await until(
        () => headers().some((h) => h.children?.[0]?.status === 'finished' && h.status === 'finished'),
        'the card says finished',
      );
    } finally {
      controller.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
