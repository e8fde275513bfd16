import assert from 'node:assert/strict';
import { ConversationMemory } from '../../../src/core/agent/conversation-memory';
import { MemoryEventStore } from '../../../src/core/log';
import { decodeSnapshotEnvelope, encodeSnapshot } from '../../../src/core/state/snapshot';
import { LogBuilder } from './builders';

describe('state: a snapshot and the resume data it carries', () => {
  it('refuses a promise of the resume data, which would be written as {} and never used', async () => {
    const b = new LogBuilder();
    b.user('go');
    const memory = ConversationMemory.fromEvents(b.events, 'c');
    const pending: unknown = memory.resumeData();
    assert.throws(() => encodeSnapshot(memory.state, pending as object), /not a promise/);
    const json = encodeSnapshot(memory.state, await memory.resumeData());
    assert.notDeepEqual(decodeSnapshotEnvelope(json)?.resume, {});
  });

  it('a snapshot of the awaited resume data is the one an open starts from', async () => {
    const b = new LogBuilder();
    b.user('go');
    b.observe(b.action('c1', 'r1'));
    const store = new MemoryEventStore<never>();
    for (const e of b.events) await store.append(e as never);
    const memory = ConversationMemory.fromEvents(b.events, 'c');
    await store.writeSnapshot(b.events.length - 1, encodeSnapshot(memory.state, await memory.resumeData()));
    const load = await ConversationMemory.load(store, 'c');
    assert.equal(load.fromSnapshot, b.events.length - 1);
  });
});
