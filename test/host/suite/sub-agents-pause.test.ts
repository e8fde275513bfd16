// Pause in the chat reaches a delegated agent in the real extension host: while the explorer is in
// the middle of its steps, Pause stops it at its next step (its own log ends in the pause and the
// model is asked nothing more for it), the header shows parent and child paused, and Resume (the
// parent's) lets the child go on where it stopped and finish, its answer reaching the parent. Stop
// on the paused tree ends the child instead, recorded in its log and the parent's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import {
  COUNTED,
  COUNTING_TASK,
  countingChildTurns,
  delegateReply,
  thoughtsOf,
} from '../../support/scenarios/counting-child';
import { chatTask, scriptedModel, until } from './helpers';

type Header = Extract<HostMessage, { type: 'header' }>['header'];

describe('Pause reaches delegated agents in the chat', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('pauses the explorer at its next step, shows it paused, and resumes it with the parent', async () => {
    llm = await scriptedModel({
      name: 'host-pause-child',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'Count for me' },
          reply: delegateReply('counter', COUNTING_TASK, 'explore'),
        },
        ...countingChildTurns(1_500),
        { match: { lastRole: 'tool', toolResultIncludes: COUNTED }, reply: { content: 'It counted.' } },
      ],
    });
    const { service, view, controller, session, headers } = await chatTask('Count for me');
    try {
      // The parent's request, the child's first and its slow second: the child is mid-step.
      await until(() => llm!.completionBodies().length === 3, "the child's second request");
      view.send({ type: 'pause', conversationId: session.id });

      const pausedTree = (h: Header) => h.status === 'paused' && h.children?.[0]?.status === 'paused';
      await until(() => headers().some(pausedTree), 'the header with parent and child paused');
      assert.equal(await session.settled(), 'paused');
      const child = headers().find(pausedTree)!.children![0]!;
      assert.equal(child.branch, 'main.explore.1');
      const childLog = (await service.childEventsAfter(session.id, child.conversationId, -1)).map(
        (e) => e.event,
      );
      assert.equal(childLog.at(-1)?.kind, 'PauseEvent', "the child's log ends in its pause");
      assert.deepEqual(thoughtsOf(childLog), ['one', 'two'], 'the step in flight finished, no other began');
      const delegation = (await session.conversation.events()).find(
        (e) => e.kind === 'ActionEvent' && e.tool_name === 'delegate',
      )!;
      const answered = async () =>
        (await session.conversation.events()).some(
          (e) => e.kind === 'ObservationEvent' && e.action_id === delegation.id,
        );
      assert.equal(await answered(), false, 'the delegation waits, unanswered');
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(llm.completionBodies().length, 3, 'the model was asked nothing more');

      view.send({ type: 'resume', conversationId: session.id });
      await until(() => session.conversation.status === 'finished', 'the parent finishes');
      assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
      const after = (await service.childEventsAfter(session.id, child.conversationId, -1)).map(
        (e) => e.event,
      );
      assert.deepEqual(thoughtsOf(after), ['one', 'two', 'three'], 'it went on where it stopped');
      assert.equal(after.filter((e) => e.kind === 'PauseEvent').length, 1);
      assert.ok(await answered(), 'the delegation got its observation');
      assert.match(
        JSON.stringify(
          (await session.conversation.events()).find(
            (e) => e.kind === 'ObservationEvent' && e.action_id === delegation.id,
          ),
        ),
        /counted to three/,
      );
      await until(
        () => headers().some((h) => h.status === 'finished' && h.children?.[0]?.status === 'finished'),
        'the card says finished',
      );
      assert.equal(llm.remainingTurns(), 0);
    } finally {
      controller.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('Stop on the paused tree ends the explorer, in its own log and in the parent’s', async () => {
    llm = await scriptedModel({
      name: 'host-stop-paused-child',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'Count and stop' },
          reply: delegateReply('counter', COUNTING_TASK, 'explore'),
        },
        ...countingChildTurns(1_500),
      ],
    });
    const { service, view, controller, session } = await chatTask('Count and stop');
    try {
      await until(() => llm!.completionBodies().length === 3, "the child's second request");
      view.send({ type: 'pause', conversationId: session.id });
      assert.equal(await session.settled(), 'paused');
      const child = service.header(session.id)!.children![0]!;
      assert.equal(child.status, 'paused');

      view.send({ type: 'stop', conversationId: session.id });
      // The delegation is answered last, once its agents have ended.
      const answer = async () =>
        (await session.conversation.events()).find(
          (e) => e.kind === 'AgentErrorEvent' && e.tool_name === 'delegate',
        );
      for (let i = 0; i < 400 && !(await answer()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(await answer(), 'the delegation is answered as stopped');
      const ends = (await session.conversation.events()).filter(
        (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent_end',
      );
      assert.equal(ends.length, 1, "the parent's log records the child's end");
      const childLog = (await service.childEventsAfter(session.id, child.conversationId, -1)).map(
        (e) => e.event as { kind: string; key?: string },
      );
      assert.equal(childLog.at(-1)?.key, 'agent_end', "the child's log ends in its end");
      // Its card reads what happened to it: stopped, not the `paused` a stop leaves in its state.
      await until(
        () => service.header(session.id)?.children?.[0]?.status === 'stopped',
        'the header shows the child stopped',
      );
      assert.equal(llm.completionBodies().length, 3, 'the model was asked nothing more');
    } finally {
      controller.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
