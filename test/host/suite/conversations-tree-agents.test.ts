// The Conversations view in the real extension host: a conversation that delegated work lists the
// delegated agent under it, labelled by agent and task, with its branch and how it ended.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConversationsTree } from '../../../src/host/vscode/conversations/conversations-tree';
import type { ScriptedLlm } from '../../support/llm-server';
import { logbook, scriptedModel } from './helpers';

const TASK = 'List what the tree module exports.';

describe('Conversations view: delegated agents', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it("shows a conversation's delegated agent under it, by agent and task", async () => {
    llm = await scriptedModel({
      name: 'tree-of-agents',
      turns: [
        {
          match: { lastRole: 'user', lastContentIncludes: 'explain the tree' },
          reply: {
            toolCalls: [
              {
                id: 'call_delegate',
                name: 'delegate',
                arguments: {
                  command: 'delegate',
                  ids: ['tree'],
                  agent_types: ['explore'],
                  tasks: { tree: TASK },
                },
              },
            ],
          },
        },
        {
          match: { lastRole: 'user', lastContentIncludes: TASK },
          reply: {
            toolCalls: [{ id: 'call_fin', name: 'finish', arguments: { message: 'It exports one class.' } }],
          },
        },
        {
          match: { lastRole: 'tool', toolResultIncludes: 'It exports one class.' },
          reply: { content: 'Done.' },
        },
      ],
    });
    const { service } = await logbook();
    const tree = new ConversationsTree(service);
    const id = await service.startTaskWith('Please explain the tree.');
    const session = await service.session(id);
    assert.equal(await session.settled(), 'finished', session.conversation.state.lastError?.message);

    const roots = await tree.getChildren();
    const row = roots.find((c) => 'id' in c && c.id === id);
    assert.ok(row, 'the conversation is listed');
    assert.equal(tree.getTreeItem(row).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const agents = await tree.getChildren(row);
    assert.equal(agents.length, 1);
    const item = tree.getTreeItem(agents[0]!);
    assert.equal(item.label, `explore: ${TASK}`);
    assert.equal(item.description, 'main.explore.1 · finished');
    assert.match(String(item.tooltip), /It exports one class\./);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.deepEqual(await tree.getChildren(agents[0]), []);
  });
});
