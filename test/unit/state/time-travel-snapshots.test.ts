// Time travel on a long log: the store keeps enough snapshots that the state at any index is read
// from a snapshot close before it, and that state is exactly the full replay of the prefix.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SNAPSHOT_EVERY } from '../../../src/core/agent/conversation-memory';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { type Event, parseEvent } from '../../../src/core/events';
import { SegmentEventStore } from '../../../src/core/log';
import { STRIDE } from '../../../src/core/log/snapshot-thinning';
import { deriveState, encodeSnapshot, initialState, reduce, stateFromStore } from '../../../src/core/state';
import { cleanupTmp, tmpDir } from '../log/helpers';
import { materialize, ops } from './arbitraries';

type Stored = StoredConversationEvent;

/** Linear events whose parent_id names the previous event, as Conversation appends them. */
function chained(events: readonly Event[]): Event[] {
  return events.map((e, i) => {
    const r = parseEvent({ ...e, parent_id: i === 0 ? null : events[i - 1]!.id });
    if (!r.ok) throw new Error(r.error.message);
    return r.event;
  });
}

/** A random conversation of at least `min` events (many random runs of ops, one builder). */
const longLog = (min: number) =>
  fc
    .array(ops(80), { minLength: min / 40, maxLength: min / 40 + 10 })
    .map((chunks) => chained(materialize(chunks.flat(), false)))
    .filter((events) => events.length >= min);

describe('state: time travel from the nearest kept snapshot', function () {
  this.timeout(300_000);
  after(cleanupTmp);

  it('the state at any index of a long random conversation equals a full replay, read from a snapshot less than 2 strides before it', async () => {
    await fc.assert(
      fc.asyncProperty(
        longLog(6 * STRIDE),
        fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
        async (events, picks) => {
          const dir = tmpDir('time-travel');
          const store = await SegmentEventStore.open<Stored>(dir, { codec: conversationEventCodec });
          // Snapshots as a Conversation writes them (every SNAPSHOT_EVERY events); the store thins them.
          let s = initialState('c');
          for (let i = 0; i < events.length; i++) {
            await store.append(events[i] as Stored);
            s = reduce(s, events[i]!);
            if ((i + 1) % SNAPSHOT_EVERY === 0) await store.writeSnapshot(i, encodeSnapshot(s));
          }
          try {
            for (const at of [...picks.map((p) => p % events.length), events.length - 2]) {
              const r = await stateFromStore(store, { id: 'c', atIndex: at });
              assert.deepStrictEqual(r.state, deriveState(events.slice(0, at + 1), { id: 'c' }), `at=${at}`);
              assert.equal(r.replayed, at - (r.fromSnapshot ?? -1), `at=${at}: replayed from its snapshot`);
              assert.ok(
                r.replayed < 2 * STRIDE,
                `at=${at} of ${events.length}: replayed ${r.replayed} events from snapshot ${r.fromSnapshot}`,
              );
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 3, endOnFailure: true },
    );
  });
});
