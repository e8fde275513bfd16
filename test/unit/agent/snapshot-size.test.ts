// Snapshots hold state, not history: a conversation that nothing condenses keeps nearly every
// event in its view, and its snapshots must still not grow with the log.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConversationMemory } from '../../../src/core/agent/conversation-memory';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { followWithSnapshots } from '../../../src/core/agent/snapshot-follower';
import { MemoryEventStore } from '../../../src/core/log/memory-store';

const EVERY = 100;

/** The real OpenHands sample events, cycled to `n` with fresh ids. */
function sampleEvents(n: number): StoredConversationEvent[] {
  const lines = readFileSync(join(__dirname, '../../fixtures/openhands/real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  return Array.from({ length: n }, (_, i) => ({
    ...(JSON.parse(lines[i % lines.length]!) as StoredConversationEvent),
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  }));
}

describe('snapshots of a long conversation', () => {
  it('do not grow with the history, and opening still starts from the newest', async () => {
    const store = new MemoryEventStore<StoredConversationEvent>({ codec: conversationEventCodec });
    const follower = followWithSnapshots(store, 'c', { every: EVERY });
    for (const e of sampleEvents(30 * EVERY)) await store.append(e);
    const written = await follower.finish();

    const size = async (i: number) => (await store.latestSnapshot(i))!.json.length;
    // Halfway, the bounded parts of the state (warnings, recent ids) are full already.
    const half = written[Math.floor(written.length / 2)]!;
    const [mid, late] = [await size(half), await size(written.at(-1)!)];
    assert.ok(late < mid * 1.2, `snapshot at ${written.at(-1)}: ${late} bytes, at ${half}: ${mid}`);

    const load = await ConversationMemory.load(store, 'c');
    assert.equal(load.fromSnapshot, written.at(-1));
    const replay = ConversationMemory.fromEvents((await store.slice(0)) as never, 'c');
    assert.deepEqual(load.memory.state, replay.state);
    assert.deepEqual(
      (await load.memory.prompt()).view.checkpoint(),
      (await replay.prompt()).view.checkpoint(),
    );
  });
});
