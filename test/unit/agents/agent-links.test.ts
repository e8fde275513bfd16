// The editor's delegation tree follows a live conversation from the starts and ends it records,
// without reading its log again for each (a long conversation with agents paid a whole read per
// agent started or ended).
import * as assert from 'node:assert/strict';
import { agentTree, ChildLinks } from '../../../src/core/agents/agent-tree';
import type { Conversation } from '../../../src/core/agent/conversation';
import { AgentLinks } from '../../../src/host/vscode/agents/agent-links';

const update = (key: string, value: unknown) => ({
  kind: 'ConversationStateUpdateEvent',
  key,
  value,
  agent_name: 'main',
  branch: 'main',
});
const start = (id: string) =>
  update('agent_start', {
    agent_name: 'explore',
    branch: `main.explore.${id}`,
    conversation_id: id,
    folder: `agents/${id}`,
  });
const end = (id: string) =>
  update('agent_end', {
    agent_name: 'explore',
    branch: `main.explore.${id}`,
    conversation_id: id,
    status: 'finished',
  });

/** A conversation as AgentLinks sees it: its events so far, and its listeners. */
function liveConversation(initial: object[]) {
  const events = [...initial];
  const listeners: ((e: never) => void)[] = [];
  let reads = 0;
  const conversation = {
    state: { agentEvents: initial.filter((e) => ChildLinks.concerns(e as never)).length },
    onEvent: (l: (e: never) => void) => listeners.push(l),
    events: async () => {
      reads++;
      return [...events];
    },
  } as unknown as Conversation;
  return {
    conversation,
    reads: () => reads,
    record(e: object) {
      events.push(e);
      for (const l of listeners) l(e as never);
    },
  };
}

describe('AgentLinks follows a live conversation', () => {
  it('reads the log once, then keeps its children from each start and end it records', async () => {
    const live = liveConversation([{ kind: 'MessageEvent' }, start('c1')]);
    const links = new AgentLinks();
    let changes = 0;
    await links.follow('root', live.conversation, () => changes++);
    assert.deepEqual(
      links.of('root').map((c) => [c.conversationId, c.end?.status ?? null]),
      [['c1', null]],
    );
    live.record(end('c1'));
    live.record(start('c2'));
    live.record({ kind: 'MessageEvent' });
    await Promise.resolve();
    assert.equal(live.reads(), 1, 'the log was read once, when followed');
    assert.deepEqual(
      links.of('root').map((c) => [c.conversationId, c.end?.status ?? null]),
      [
        ['c1', 'finished'],
        ['c2', null],
      ],
    );
    assert.equal(changes, 2, 'told once per start or end');
  });

  it('a log that names no agent is not read at all', async () => {
    const live = liveConversation([{ kind: 'MessageEvent' }]);
    const links = new AgentLinks();
    await links.follow('root', live.conversation, () => undefined);
    live.record(start('c1'));
    assert.equal(live.reads(), 0);
    assert.deepEqual(
      links.of('root').map((c) => c.conversationId),
      ['c1'],
    );
  });

  it('folding events one at a time gives what reading them all gives, and twice changes nothing', () => {
    const events = [
      start('c1'),
      update('agent_start', { agent_name: 'docs', branch: 'main', handoff: true }),
      start('c2'),
      end('c1'),
    ];
    const folded = new ChildLinks();
    for (const e of [...events, ...events]) folded.add(e);
    assert.deepEqual(folded.list(), agentTree(events).children);
  });
});
