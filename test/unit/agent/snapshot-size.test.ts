// Snapshots hold state, not history: a conversation that nothing condenses keeps nearly every
// event in its view, and its snapshots must still not grow with the log.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationMemory } from '../../../src/core/agent/conversation-memory';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { followWithSnapshots } from '../../../src/core/agent/snapshot-follower';
import { MemoryEventStore } from '../../../src/core/log/memory-store';
import { SegmentEventStore } from '../../../src/core/log/segment-store';
import { snapshotsToKeep } from '../../../src/core/log/snapshot-thinning';
import { decodeSnapshotEnvelope } from '../../../src/core/state';

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

  it('of a log whose length is known: only those the store keeps, each what the full memory gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logbook-follow-'));
    try {
      const n = 40 * EVERY + 17;
      const store = await SegmentEventStore.open<StoredConversationEvent>(dir, {
        codec: conversationEventCodec,
      });
      const follower = followWithSnapshots(store, 'c', { every: EVERY, expectedLength: n });
      const events = sampleEvents(n);
      for (const e of events) await store.append(e);
      const written = (await follower.finish()).sort((a, b) => a - b);
      await store.close();

      const taken = Array.from({ length: Math.floor(n / EVERY) }, (_, k) => (k + 1) * EVERY - 1);
      const kept = [...snapshotsToKeep([...taken, n - 1])].sort((a, b) => a - b);
      assert.deepEqual(written, kept, 'none written only to be thinned away');
      assert.ok(kept.length > 3 && kept.length < 12, kept.join(' '));
      const files = readdirSync(join(dir, 'snapshots')).sort();
      assert.deepEqual(
        files,
        kept.map((i) => `snap-${String(i).padStart(12, '0')}.json`),
        'the store keeps every one',
      );
      for (const index of kept) {
        const text = readFileSync(
          join(dir, 'snapshots', `snap-${String(index).padStart(12, '0')}.json`),
          'utf8',
        );
        const got = decodeSnapshotEnvelope(text.slice(text.indexOf('\n') + 1))!;
        const full = ConversationMemory.fromEvents(events.slice(0, index + 1), 'c');
        assert.deepEqual(got.state, full.state, `state at ${index}`);
        assert.deepEqual(
          JSON.parse(JSON.stringify(got.resume)),
          JSON.parse(JSON.stringify(await full.resumeData())),
          `view at ${index}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
