// A grandchild's question in the real extension host: main delegates to a `lead` agent, the lead
// to the explorer, whose read outside the workspace waits for the user. The chat's header lists the
// grandchild (nested under the lead), its steps reach the chat, and its batch is rejected, then
// confirmed, through the chat's message path; the whole chain finishes.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import {
  GRANDCHILD_TASK,
  grandchildAsksTurns,
  LEAD_DEFINITION,
  REJECT_REASON,
} from '../../support/scenarios/grandchild-asks';
import { chatTask, scriptedModel, until, workspaceRoot } from './helpers';

type Header = Extract<HostMessage, { type: 'header' }>['header'];
type Child = NonNullable<Header['children']>[number];

describe("A grandchild's question from the chat", function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('is rejected, then confirmed, from the chat; the grandchild, the lead and the parent finish', async () => {
    mkdirSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true });
    writeFileSync(join(workspaceRoot(), '.logbook', 'agents', 'lead.md'), LEAD_DEFINITION);
    llm = await scriptedModel({ name: 'host-grandchild-asks', turns: grandchildAsksTurns() });
    const { service, view, controller, session, warned, headers } = await chatTask(
      'Find the host name, through the lead.',
    );
    try {
      const asking = (not: readonly string[] = []): Child | undefined =>
        headers()
          .at(-1)
          ?.children?.find(
            (c) => c.branch === 'main.lead.1.explore.1' && c.pendingActionIds.some((id) => !not.includes(id)),
          );
      await until(() => asking() !== undefined, "the grandchild's question in the header");
      const grandchild = asking()!;
      const lead = headers()
        .at(-1)!
        .children!.find((c) => c.branch === 'main.lead.1')!;
      assert.ok(lead, 'the lead is listed');
      assert.equal(lead.parentConversationId, session.id);
      assert.deepEqual(lead.pendingActionIds, [], "the lead's own batch is empty: it waits on its child");
      assert.equal(grandchild.parentConversationId, lead.conversationId, 'nested under the lead');
      assert.equal(grandchild.agentName, 'explore');
      assert.equal(grandchild.task, GRANDCHILD_TASK);
      assert.deepEqual(session.header().pendingActionIds, []);

      // The grandchild's card sits under the lead's delegate step, and its steps reach the chat.
      const sentOf = (childId: string) =>
        view.posted.flatMap((m) => (m.type === 'childEvents' && m.childId === childId ? m.events : []));
      await until(
        () => sentOf(lead.conversationId).some((e) => e.event.id === grandchild.parentEventId),
        "the lead's delegate step in the chat",
      );
      const leadDelegation = sentOf(lead.conversationId).find(
        (e) => e.event.id === grandchild.parentEventId,
      )!;
      assert.equal(leadDelegation.event.kind, 'ActionEvent');
      assert.equal(leadDelegation.event.tool_name, 'delegate');
      await until(
        () => sentOf(grandchild.conversationId).some((e) => e.event.id === grandchild.pendingActionIds[0]),
        "the grandchild's waiting action in the chat",
      );

      // Rejected from the chat: the grandchild reads why and asks again.
      const first = grandchild.pendingActionIds;
      view.send({ type: 'reject', conversationId: session.id, actionIds: first, reason: REJECT_REASON });
      await until(() => asking(first) !== undefined, "the grandchild's second question");
      const second = asking(first)!.pendingActionIds;
      assert.notDeepEqual(second, first);
      // Confirmed from the chat: the chain runs to its end.
      view.send({ type: 'approve', conversationId: session.id, actionIds: second });
      await until(() => session.conversation.status === 'finished', 'the parent finishes');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      assert.deepEqual(warned, []);

      const events = await session.conversation.events();
      const observation = events.find((e) => e.kind === 'ObservationEvent' && e.tool_name === 'delegate');
      assert.match(JSON.stringify(observation), /Lead: the explorer read it\./);
      const grandEvents = await service.childEventsAfter(session.id, grandchild.conversationId, -1);
      const rejected = grandEvents.find((e) => e.event.kind === 'UserRejectObservation');
      assert.equal(rejected?.event.action_id, first[0]);
      assert.match(JSON.stringify(rejected?.event), new RegExp(REJECT_REASON));
      const ran = grandEvents.find(
        (e) => e.event.kind === 'ObservationEvent' && e.event.action_id === second[0],
      );
      assert.ok(ran, 'the confirmed read ran in the grandchild');
      await until(
        () =>
          headers()
            .at(-1)
            ?.children?.every((c) => c.status === 'finished') === true,
        'every card says finished',
      );
      assert.equal(headers().at(-1)!.children!.length, 2);
    } finally {
      controller.dispose();
    }
  });
});
