import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Event } from '../../../src/core/events';
import { MemoryEventStore, type StoredEvent } from '../../../src/core/log';
import {
  type ConversationState,
  decodeSnapshot,
  deriveState,
  encodeSnapshot,
  SNAPSHOT_VERSION,
  type SnapshotSink,
  StateTimeline,
} from '../../../src/core/state';
import { forkedLog } from './arbitraries';
import { LogBuilder } from './builders';

/** In-memory sink with the EventStore's semantics (eventId of the event at the index). */
class FakeSink implements SnapshotSink {
  readonly written: { index: number; eventId: string; json: string }[] = [];
  failNext = false;
  constructor(private readonly events: readonly Event[]) {}
  async writeSnapshot(index: number, json: string): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    this.written.push({ index, eventId: this.events[index]!.id, json });
  }
  async latestSnapshot(atOrBefore = Infinity) {
    const ok = this.written.filter((s) => s.index <= atOrBefore);
    return ok.sort((a, b) => a.index - b.index).at(-1);
  }
}

function longLinearLog(n: number): Event[] {
  const b = new LogBuilder();
  b.user('long run');
  b.status('running');
  while (b.events.length < n) {
    const a = b.action(`c${b.events.length}`, `r${b.events.length}`);
    b.started(a);
    b.observe(a);
    b.usage('agent');
  }
  return b.events.slice(0, n);
}

describe('state: timeline (time travel)', () => {
  it('stateAt(i) equals deriveState(events.slice(0, i + 1)) for random i, forks included', () => {
    fc.assert(
      fc.property(
        forkedLog(80),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, interval, picks) => {
          fc.pre(events.length > 0);
          const t = new StateTimeline({ id: 'c', interval });
          for (const e of events) t.append(e);
          assert.deepStrictEqual(t.state, deriveState(events, { id: 'c' }));
          for (const p of picks) {
            const i = p % events.length;
            assert.deepStrictEqual(t.stateAt(i), deriveState(events.slice(0, i + 1), { id: 'c' }), `i=${i}`);
            assert.ok(t.lastReplayLength <= interval, `replayed ${t.lastReplayLength} > ${interval}`);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps a snapshot every N events of a branch, and stateAt replays at most N events', () => {
    const events = longLinearLog(2500);
    const t = new StateTimeline({ interval: 1000 });
    for (const e of events) t.append(e);
    assert.deepEqual(t.snapshotIndices(), [999, 1999]);
    for (const i of [0, 998, 999, 1000, 1998, 2499]) {
      assert.deepStrictEqual(t.stateAt(i), deriveState(events.slice(0, i + 1)));
      assert.ok(t.lastReplayLength <= 1000, `i=${i} replayed ${t.lastReplayLength}`);
    }
    assert.equal(t.stateAt(1998).eventCount, 1999);
    assert.equal(t.lastReplayLength, 999);
    assert.equal(t.stateAt(2499), t.state, 'the head is served without replay');
    assert.equal(t.lastReplayLength, 0);
    assert.throws(() => t.stateAt(2500), RangeError);
    assert.throws(() => t.stateAt(-1), RangeError);
  });

  it('snapshots are JSON that restores deep-equal; other versions and damage are refused', () => {
    const s: ConversationState = deriveState(longLinearLog(50), { id: 'c' });
    const json = encodeSnapshot(s);
    assert.deepStrictEqual(decodeSnapshot(json), s);
    assert.equal(decodeSnapshot(json.slice(0, -3)), null);
    assert.equal(decodeSnapshot(JSON.stringify({ v: SNAPSHOT_VERSION + 1, state: s })), null);
    assert.equal(
      decodeSnapshot(JSON.stringify({ v: SNAPSHOT_VERSION, state: { ...s, status: 'zzz' } })),
      null,
    );
  });

  it('persists snapshots through the sink and reopens from the newest valid one', async () => {
    const events = longLinearLog(350);
    const sink = new FakeSink(events);
    const t = new StateTimeline({ id: 'c', interval: 100, sink });
    for (const e of events) t.append(e);
    assert.deepEqual(await t.flush(), []);
    assert.deepEqual(
      sink.written.map((w) => w.index),
      [99, 199, 299],
    );
    const { timeline, snapshot } = await StateTimeline.load(events, { id: 'c', interval: 100, sink });
    assert.deepEqual(snapshot, { used: true, index: 299 });
    assert.equal(timeline.lastReplayLength, 50, 'only the events after the snapshot were replayed');
    assert.deepStrictEqual(timeline.state, deriveState(events, { id: 'c' }));
    // Earlier positions are replayed from the root the first time, then served from snapshots.
    assert.deepStrictEqual(timeline.stateAt(150), deriveState(events.slice(0, 151), { id: 'c' }));
    assert.deepStrictEqual(timeline.stateAt(120), deriveState(events.slice(0, 121), { id: 'c' }));
    assert.ok(timeline.lastReplayLength <= 100);
  });

  it('an EventStore is a SnapshotSink: snapshots written to a MemoryEventStore reopen the timeline', async () => {
    const events = longLinearLog(260);
    const store = new MemoryEventStore();
    for (const e of events) await store.append(e as unknown as StoredEvent);
    const sink: SnapshotSink = store;
    const t = new StateTimeline({ id: 'c', interval: 100, sink });
    for (const e of events) t.append(e);
    assert.deepEqual(await t.flush(), []);
    assert.equal((await store.latestSnapshot())?.index, 199);
    const { timeline, snapshot } = await StateTimeline.load(events, { id: 'c', interval: 100, sink: store });
    assert.deepEqual(snapshot, { used: true, index: 199 });
    assert.equal(timeline.lastReplayLength, 60);
    assert.deepStrictEqual(timeline.state, t.state);
  });

  it('ignores a stale, unreadable or foreign snapshot and replays instead', async () => {
    const events = longLinearLog(30);
    const truth = deriveState(events, { id: 'c' });
    const cases: [string, { index: number; eventId: string; json: string }][] = [
      [
        'stale',
        { index: 9, eventId: 'another-event', json: encodeSnapshot(deriveState(events.slice(0, 10))) },
      ],
      ['unreadable', { index: 9, eventId: events[9]!.id, json: '{"v":1,' }],
      [
        'other-conversation',
        {
          index: 9,
          eventId: events[9]!.id,
          json: encodeSnapshot(deriveState(events.slice(0, 10), { id: 'x' })),
        },
      ],
    ];
    for (const [reason, snap] of cases) {
      const sink = new FakeSink(events);
      sink.written.push(snap);
      const { timeline, snapshot } = await StateTimeline.load(events, { id: 'c', interval: 100, sink });
      assert.deepEqual(snapshot, { used: false, reason, index: 9 });
      assert.deepStrictEqual(timeline.state, truth, reason);
    }
    const { snapshot } = await StateTimeline.load(events, { id: 'c', sink: new FakeSink(events) });
    assert.deepEqual(snapshot, { used: false, reason: 'none' });
  });

  it('a failed snapshot write never breaks append; flush reports it', async () => {
    const events = longLinearLog(25);
    const sink = new FakeSink(events);
    sink.failNext = true;
    const t = new StateTimeline({ interval: 10, sink });
    for (const e of events) t.append(e);
    const errors = await t.flush();
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /disk full/);
    assert.deepEqual(
      sink.written.map((w) => w.index),
      [19],
    );
    assert.deepEqual(await t.flush(), [], 'errors are reported once');
  });

  it('rejects a bad interval', () => {
    assert.throws(() => new StateTimeline({ interval: 0 }), RangeError);
    assert.throws(() => new StateTimeline({ interval: 1.5 }), RangeError);
  });
});
