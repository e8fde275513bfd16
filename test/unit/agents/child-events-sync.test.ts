// The chat's copy of a conversation's delegated agents: a child's events go once in full when the
// header first names it, then as appended, each seq at most once; another conversation's are not sent.
import * as assert from 'node:assert/strict';
import { ChildEventsSync } from '../../../src/host/vscode/agents/child-events-sync';
import type { ConversationHeader, SequencedEvent } from '../../../src/host/vscode/chat/chat-backend';
import type { HostMessage } from '../../../src/protocol/messages';

const ev = (seq: number): SequencedEvent => ({ seq, event: { kind: 'MessageEvent', id: `e${seq}` } });
const header = (id: string, children: string[]): ConversationHeader =>
  ({
    id,
    children: children.map((c) => ({
      conversationId: c,
      parentEventId: null,
      agentName: 'explore',
      branch: 'main.explore.1',
      task: 't',
      status: 'running',
      cost: 0,
      tokens: 0,
      pendingActionIds: [],
      pendingRisks: [],
    })),
  }) as unknown as ConversationHeader;

describe('ChildEventsSync', () => {
  it('sends a child in full once, then only what is new, and nothing of another conversation', async () => {
    const posted: HostMessage[] = [];
    const log: Record<string, SequencedEvent[]> = { c1: [ev(0), ev(1)] };
    const sync = new ChildEventsSync(
      { childEventsAfter: async (_p, child, after) => (log[child] ?? []).filter((e) => e.seq > after) },
      (m) => posted.push(m),
      (m) => assert.fail(m),
    );
    sync.show('p');
    sync.onHeader(header('p', ['c1']));
    sync.onHeader(header('p', ['c1']));
    await new Promise((r) => setTimeout(r, 10));
    const seqs = () => posted.flatMap((m) => (m.type === 'childEvents' ? m.events.map((e) => e.seq) : []));
    assert.deepEqual(seqs(), [0, 1]);
    sync.onAppend('p', 'c1', [ev(1), ev(2)]);
    assert.deepEqual(seqs(), [0, 1, 2]);
    sync.onAppend('other', 'c1', [ev(3)]);
    sync.onHeader(header('other', ['c9']));
    assert.deepEqual(seqs(), [0, 1, 2]);
    assert.ok(
      posted.every((m) => m.type === 'childEvents' && m.conversationId === 'p' && m.childId === 'c1'),
    );
    // Shown again after another one: the child is sent in full again.
    sync.show('other');
    sync.show('p');
    sync.onHeader(header('p', ['c1']));
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seqs(), [0, 1, 2, 0, 1]);
  });
});
