// A delegated agent clicked in the Conversations view, in the real extension host: its tree item
// runs Logbook's reveal command with the conversation and the agents down to it; the command makes
// that conversation the chat's and tells the chat which card to open and focus. Deleting the
// conversation then drops what the window held of its delegated agents.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { openEventStore } from '../../../src/core/log';
import { ConversationIndexFile, entryFromState, stateFromStore, upsertEntry } from '../../../src/core/state';
import { ChatController } from '../../../src/host/vscode/chat/chat-view';
import { ConversationsTree } from '../../../src/host/vscode/conversations/conversations-tree';
import type { HostMessage } from '../../../src/protocol/messages';
import type { ScriptedLlm } from '../../support/llm-server';
import type { Turn } from '../../support/llm-server/scenario';
import {
  delegateThroughLead,
  GRANDCHILD_TASK,
  LEAD_DEFINITION,
} from '../../support/scenarios/grandchild-asks';
import { logbook, recordingWebview, scriptedModel, spawnCli, until, workspaceRoot } from './helpers';

const finish = (id: string, message: string) => ({
  toolCalls: [{ id, name: 'finish', arguments: { message } }],
});

/** Main delegates to the lead, the lead to the explorer; each finishes without asking anything. */
function leadAndExplorerTurns(): Turn[] {
  return [
    ...delegateThroughLead('through the lead'),
    {
      match: { lastRole: 'user', lastContentIncludes: GRANDCHILD_TASK },
      reply: finish('g', 'It is box.'),
    },
    { match: { lastRole: 'tool', toolResultIncludes: 'It is box.' }, reply: finish('l', 'Lead: box.') },
    { match: { lastRole: 'tool', toolResultIncludes: 'Lead: box.' }, reply: { content: 'Done.' } },
  ];
}

describe('Conversations view: clicking a delegated agent', function () {
  this.timeout(90_000);
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
    rmSync(join(workspaceRoot(), '.logbook'), { recursive: true, force: true });
  });

  it("shows the parent's chat with the grandchild's card revealed; delete drops the agents", async () => {
    mkdirSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true });
    writeFileSync(join(workspaceRoot(), '.logbook', 'agents', 'lead.md'), LEAD_DEFINITION);
    llm = await scriptedModel({ name: 'host-reveal-agent', turns: leadAndExplorerTurns() });
    const { service } = await logbook();
    const id = await service.startTaskWith('Find the host name, through the lead.');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);
    await service.setActive(undefined);

    const view = recordingWebview();
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => assert.fail(m) };
    const controller = new ChatController(view.port, service, log);
    try {
      view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await until(() => view.posted.some((m) => m.type === 'conversation'), 'the empty state');

      // The tree: the conversation, the lead under it, the explorer under the lead.
      const tree = new ConversationsTree(service);
      const row = (await tree.getChildren()).find((c) => 'id' in c && c.id === id)!;
      const [lead] = await tree.getChildren(row);
      assert.ok(lead && 'link' in lead, 'the lead is listed');
      const [explorer] = await tree.getChildren(lead);
      assert.ok(explorer && 'link' in explorer, 'the explorer is listed under the lead');
      const leadItem = tree.getTreeItem(lead);
      assert.deepEqual(leadItem.command?.arguments, [
        { conversationId: id, childIds: [lead.link.conversationId] },
      ]);
      const item = tree.getTreeItem(explorer);
      assert.equal(item.command?.command, 'logbook.revealDelegatedAgent');
      const target = {
        conversationId: id,
        childIds: [lead.link.conversationId, explorer.link.conversationId],
      };
      assert.deepEqual(item.command?.arguments, [target]);

      // A click: the chat shows the conversation, then is told to reveal the explorer's card.
      const before = view.posted.length;
      await vscode.commands.executeCommand(item.command!.command, ...item.command!.arguments!);
      assert.equal(service.activeId, id);
      await until(
        () => view.posted.slice(before).some((m) => m.type === 'revealChild'),
        'the reveal posted to the chat',
      );
      const after = view.posted.slice(before);
      const shownAt = after.findIndex((m) => m.type === 'conversation' && m.header?.id === id);
      const revealAt = after.findIndex((m) => m.type === 'revealChild');
      assert.ok(shownAt >= 0 && shownAt < revealAt, 'the conversation is shown before the reveal');
      assert.deepEqual(after[revealAt], { type: 'revealChild', ...target });
      // The chat can find both cards: the header lists them, nested by the conversation that delegated.
      const shown = after[shownAt] as Extract<HostMessage, { type: 'conversation' }>;
      const listed = shown.header!.children!.map((c) => [c.conversationId, c.parentConversationId]);
      assert.deepEqual(listed, [
        [lead.link.conversationId, id],
        [explorer.link.conversationId, lead.link.conversationId],
      ]);

      // A bad argument is refused; nothing is revealed.
      const count = view.posted.filter((m) => m.type === 'revealChild').length;
      assert.equal(
        await vscode.commands.executeCommand('logbook.revealDelegatedAgent', { conversationId: id }),
        undefined,
      );
      assert.equal(view.posted.filter((m) => m.type === 'revealChild').length, count);

      // Deleting the conversation: the window holds nothing more of its agents.
      assert.equal(service.delegatedAgentViews(id).length, 2);
      await service.delete(id);
      assert.deepEqual(service.delegatedAgentViews(id), []);
      assert.deepEqual(await service.childEventsAfter(id, lead.link.conversationId, -1), []);
    } finally {
      controller.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('a conversation whose agents ended before this window opened it: the whole tree and its steps are read from the logs', async () => {
    mkdirSync(join(workspaceRoot(), '.logbook', 'agents'), { recursive: true });
    writeFileSync(join(workspaceRoot(), '.logbook', 'agents', 'lead.md'), LEAD_DEFINITION);
    llm = await scriptedModel({ name: 'host-reveal-closed', turns: leadAndExplorerTurns() });
    const { service } = await logbook();
    // Written to the end by another process (the CLI), as by this window before a reload.
    const id = randomUUID();
    const dir = join(service.root, id);
    const cli = spawnCli(
      [
        'run',
        '--workspace',
        workspaceRoot(),
        '--store',
        dir,
        '--task',
        'Find the host name, through the lead.',
      ],
      llm,
      { LOGBOOK_SANDBOX: 'off' },
    );
    const code = await new Promise((resolve) => cli.once('exit', resolve));
    assert.equal(code, 0);
    const store = await openEventStore<StoredConversationEvent>(dir, {
      codec: conversationEventCodec,
      readOnly: true,
    });
    const { state } = await stateFromStore(store, { id }).finally(() => store.close());
    const indexFile = new ConversationIndexFile(join(service.root, 'index.json'));
    const stored = await indexFile.read();
    assert.ok(stored.ok);
    await indexFile.save(upsertEntry(stored.index, entryFromState(id, state)));
    await service.initialize();
    await service.setActive(undefined);

    const view = recordingWebview();
    const log = { info: () => undefined, warn: () => undefined, error: (m: string) => assert.fail(m) };
    const controller = new ChatController(view.port, service, log);
    try {
      view.send({ type: 'ready', conversationId: null, lastSeq: -1 });
      await until(() => view.posted.some((m) => m.type === 'conversation'), 'the empty state');
      const tree = new ConversationsTree(service);
      const row = (await tree.getChildren()).find((c) => 'id' in c && c.id === id)!;
      const [lead] = await tree.getChildren(row);
      assert.ok(lead && 'link' in lead);
      const [explorer] = await tree.getChildren(lead);
      assert.ok(explorer && 'link' in explorer);
      const item = tree.getTreeItem(explorer);
      await vscode.commands.executeCommand(item.command!.command, ...item.command!.arguments!);
      await until(() => view.posted.some((m) => m.type === 'revealChild'), 'the reveal');
      const shown = view.posted.find(
        (m): m is Extract<HostMessage, { type: 'conversation' }> =>
          m.type === 'conversation' && m.header?.id === id,
      )!;
      assert.deepEqual(
        shown.header!.children!.map((c) => [c.conversationId, c.parentConversationId, c.status]),
        [
          [lead.link.conversationId, id, 'finished'],
          [explorer.link.conversationId, lead.link.conversationId, 'finished'],
        ],
      );
      // The steps of both reach the chat: the lead's delegation, the explorer's final message.
      const sentOf = (childId: string) =>
        view.posted.flatMap((m) => (m.type === 'childEvents' && m.childId === childId ? m.events : []));
      await until(
        () => sentOf(lead.link.conversationId).some((e) => e.event.id === explorer.link.parentEventId),
        "the lead's delegate step",
      );
      await until(
        () =>
          sentOf(explorer.link.conversationId).some(
            (e) => e.event.kind === 'ActionEvent' && e.event.tool_name === 'finish',
          ),
        "the explorer's finish",
      );
    } finally {
      controller.dispose();
      await service.delete(id).catch(() => undefined);
    }
  });
});
