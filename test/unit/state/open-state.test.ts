import assert from 'node:assert/strict';
import fc from 'fast-check';
import { conversationEventCodec, type StoredConversationEvent } from '../../../src/core/agent/event-codec';
import { type Event, parseEvent } from '../../../src/core/events';
import {
  corruptRecord,
  MemoryEventStore,
  SegmentEventStore,
  type Slot,
  type Snapshot,
} from '../../../src/core/log';
import {
  type ConversationState,
  deriveState,
  encodeSnapshot,
  initialState,
  reduce,
  SNAPSHOT_VERSION,
  type StateSource,
  stateFromStore,
} from '../../../src/core/state';
import { cleanupTmp, flipByteInLine, lineOffsets, segmentPath, tmpDir } from '../log/helpers';
import { forkedLog, linearLog } from './arbitraries';
import { LogBuilder } from './builders';

type Stored = StoredConversationEvent;

/** A MemoryEventStore of conversation events (encoded and parsed back, as on disk). */
async function memoryStore(events: readonly Event[]): Promise<MemoryEventStore<Stored>> {
  const store = new MemoryEventStore<Stored>({ codec: conversationEventCodec });
  for (const e of events) await store.append(e as Stored);
  return store;
}

/**
 * Writes a snapshot after every `every` events, as the Conversation does: the state it holds, i.e.
 * the reduction of the readable events so far (`skip`: indices that will read back as corrupt).
 */
async function writeSnapshots(
  store: MemoryEventStore<Stored>,
  events: readonly Event[],
  every: number,
  opts: { id?: string | null; skip?: ReadonlySet<number> } = {},
): Promise<number[]> {
  let s = initialState(opts.id ?? null);
  const written: number[] = [];
  for (let i = 0; i < events.length; i++) {
    if (!opts.skip?.has(i)) s = reduce(s, events[i]!);
    if ((i + 1) % every === 0 && !opts.skip?.has(i)) {
      await store.writeSnapshot(i, encodeSnapshot(s));
      written.push(i);
    }
  }
  return written;
}

/** Linear events whose parent_id names the previous event, as Conversation appends them. */
function chained(events: readonly Event[]): Event[] {
  return events.map((e, i) => {
    const r = parseEvent({ ...e, parent_id: i === 0 ? null : events[i - 1]!.id });
    if (!r.ok) throw new Error(r.error.message);
    return r.event;
  });
}

/**
 * A store view that serves chosen slots as CorruptRecord and lets a test rewrite the snapshots it
 * returns (the real stores check crc and event id; this one lets stale snapshots through, so the
 * checks of `stateFromStore` itself are what is tested).
 */
function view(
  store: MemoryEventStore<Stored>,
  opts: {
    corrupt?: ReadonlySet<number>;
    snapshots?: Snapshot[];
  } = {},
): StateSource & { indexOfCalls: number } {
  const corrupt = opts.corrupt ?? new Set<number>();
  const slot = (s: Slot<Stored>, i: number): Slot<Stored> => (corrupt.has(i) ? corruptRecord(i, 'test') : s);
  const v = {
    indexOfCalls: 0,
    get length() {
      return store.length;
    },
    get: async (i: number) => slot(await store.get(i), i),
    slice: async (from?: number, to?: number) => {
      const a = from ?? 0;
      return (await store.slice(from, to)).map((s, k) => slot(s, a + k));
    },
    indexOf: async (id: string) => {
      v.indexOfCalls++;
      const i = await store.indexOf(id);
      return corrupt.has(i) ? -1 : i;
    },
    latestSnapshot: async (atOrBefore?: number) => {
      if (!opts.snapshots) return store.latestSnapshot(atOrBefore);
      const limit = Math.min(atOrBefore ?? Infinity, store.length - 1);
      return opts.snapshots
        .filter((s) => s.index <= limit)
        .sort((a, b) => a.index - b.index)
        .at(-1);
    },
  };
  return v;
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

const readable = (events: readonly Event[], at: number, corrupt: ReadonlySet<number> = new Set()) =>
  events.slice(0, at + 1).filter((_, i) => !corrupt.has(i));

describe('state: stateFromStore (open from the newest snapshot plus the tail)', () => {
  after(cleanupTmp);

  it('equals deriveState of the prefix for random linear logs, atIndex and snapshot interval', async () => {
    await fc.assert(
      fc.asyncProperty(
        linearLog(80),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        async (raw, every, linkParents, picks) => {
          fc.pre(raw.length > 0);
          const events = linkParents ? chained(raw) : raw;
          const store = await memoryStore(events);
          const written = await writeSnapshots(store, events, every, { id: 'c' });
          for (const p of [...picks.map((x) => x % events.length), undefined]) {
            const at = p ?? events.length - 1;
            const r = await stateFromStore(store, p === undefined ? { id: 'c' } : { id: 'c', atIndex: p });
            assert.deepStrictEqual(r.state, deriveState(events.slice(0, at + 1), { id: 'c' }), `at=${at}`);
            const expected = written.filter((w) => w <= at).at(-1) ?? null;
            assert.equal(r.fromSnapshot, expected, `at=${at}: the newest snapshot at or before it`);
            assert.equal(r.replayed, at - (expected ?? -1));
            assert.ok(
              r.replayed <= every - 1,
              `at=${at}: replayed ${r.replayed} with a snapshot every ${every}`,
            );
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('skips CorruptRecord slots: equals deriveState of the readable events, wherever they are', async () => {
    await fc.assert(
      fc.asyncProperty(
        linearLog(60),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.nat(),
        async (raw, every, lost, pick) => {
          fc.pre(raw.length > 0);
          const events = chained(raw);
          const corrupt = new Set(lost.map((x) => x % events.length));
          const store = await memoryStore(events);
          await writeSnapshots(store, events, every, { skip: corrupt });
          const src = view(store, { corrupt });
          const at = pick % events.length;
          const r = await stateFromStore(src, { atIndex: at });
          assert.deepStrictEqual(r.state, deriveState(readable(events, at, corrupt)));
          assert.ok(r.replayed <= at - (r.fromSnapshot ?? -1), `replayed ${r.replayed}`);
          // A lost record at a snapshot point loses that snapshot (the stores refuse one there).
          if (![...corrupt].some((c) => (c + 1) % every === 0)) assert.ok(r.replayed <= every - 1);
          // Only an event right after a lost record names a parent other than the head; the store
          // is asked whether that parent is an earlier event (it is not: no fork).
          const from = (r.fromSnapshot ?? -1) + 1;
          let afterLost = false;
          for (let j = Math.max(1, from); j <= at; j++)
            if (!corrupt.has(j) && corrupt.has(j - 1)) afterLost = true;
          assert.equal(src.indexOfCalls > 0, afterLost);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('falls back to a full derive when a replayed event forks (still equals deriveState)', async () => {
    await fc.assert(
      fc.asyncProperty(
        forkedLog(60),
        fc.integer({ min: 1, max: 8 }),
        fc.nat(),
        async (events, every, pick) => {
          fc.pre(events.length > 0);
          const store = await memoryStore(events);
          // Snapshot states as a StateTimeline holds them: the state of the branch of that event.
          for (let i = every - 1; i < events.length; i += every)
            await store.writeSnapshot(i, encodeSnapshot(deriveState(events.slice(0, i + 1))));
          const at = pick % events.length;
          const r = await stateFromStore(store, { atIndex: at });
          assert.deepStrictEqual(r.state, deriveState(events.slice(0, at + 1)));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('a fork in the tail is detected (no snapshot trusted across it)', async () => {
    const b = new LogBuilder();
    b.user('one');
    b.agent('a1');
    const fork = b.user('two');
    b.agent('a2');
    b.forkFrom(fork.id).agent('a2 again');
    b.forkFrom(b.events[0]!.id).user('rewrite');
    const store = await memoryStore(b.events);
    await store.writeSnapshot(1, encodeSnapshot(deriveState(b.events.slice(0, 2))));
    const r = await stateFromStore(store);
    assert.deepStrictEqual(r.state, deriveState(b.events));
    assert.equal(r.state.eventCount, 2, 'root + the rewritten user message');
    assert.equal(r.fromSnapshot, null);
  });

  it('no snapshot: replays from event 0', async () => {
    const events = longLinearLog(300);
    const store = await memoryStore(events);
    const r = await stateFromStore(store, { id: 'c' });
    assert.deepStrictEqual(r, { state: deriveState(events, { id: 'c' }), fromSnapshot: null, replayed: 300 });
  });

  it('replays at most interval - 1 events with a snapshot every 1000', async () => {
    const events = longLinearLog(2500);
    const store = await memoryStore(events);
    assert.deepEqual(await writeSnapshots(store, events, 1000), [999, 1999]);
    for (const [at, from, replayed] of [
      [2499, 1999, 500],
      [1999, 1999, 0],
      [1998, 999, 999],
      [999, 999, 0],
      [998, null, 999],
      [0, null, 1],
    ] as const) {
      const r = await stateFromStore(store, { atIndex: at });
      assert.deepStrictEqual(r.state, deriveState(events.slice(0, at + 1)), `at=${at}`);
      assert.equal(r.fromSnapshot, from, `at=${at}`);
      assert.equal(r.replayed, replayed, `at=${at}`);
    }
  });

  it('ignores stale, unreadable, other-version and inconsistent snapshots, falling back to the previous one', async () => {
    const events = longLinearLog(35);
    const store = await memoryStore(events);
    const truth = deriveState(events, { id: 'c' });
    const good = (i: number): Snapshot => ({
      index: i,
      eventId: events[i]!.id,
      json: encodeSnapshot(deriveState(events.slice(0, i + 1), { id: 'c' })),
    });
    const bad: [string, Snapshot][] = [
      ['stale: another event at its index', { ...good(29), eventId: 'another-event' }],
      ['unreadable', { ...good(29), json: '{"v":1,' }],
      ['empty', { ...good(29), json: '' }],
      [
        'other version',
        { ...good(29), json: JSON.stringify({ v: SNAPSHOT_VERSION + 1, state: deriveState(events) }) },
      ],
      [
        'state of another position',
        { ...good(29), json: encodeSnapshot(deriveState(events.slice(0, 20), { id: 'c' })) },
      ],
      ['event id of a later event', { ...good(29), eventId: events[30]!.id }],
    ];
    for (const [why, snap] of bad) {
      const r = await stateFromStore(view(store, { snapshots: [good(9), good(19), snap] }), { id: 'c' });
      assert.deepStrictEqual(r.state, truth, why);
      assert.equal(r.fromSnapshot, 19, `${why}: the previous snapshot is used`);
      assert.equal(r.replayed, 15, why);
      // Nothing valid at all: replay from 0.
      const r0 = await stateFromStore(view(store, { snapshots: [snap] }), { id: 'c' });
      assert.deepStrictEqual(r0, { state: truth, fromSnapshot: null, replayed: 35 }, why);
    }
    // Several bad ones in a row are all skipped.
    const r = await stateFromStore(
      view(store, { snapshots: [good(9), ...bad.map(([, s], k) => ({ ...s, index: 10 + k }))] }),
      { id: 'c' },
    );
    assert.equal(r.fromSnapshot, 9);
    assert.deepStrictEqual(r.state, truth);
  });

  it('a snapshot whose event slot is corrupt, or whose store fails, is not used', async () => {
    const events = longLinearLog(25);
    const store = await memoryStore(events);
    await writeSnapshots(store, events, 10);
    const r = await stateFromStore(view(store, { corrupt: new Set([19]) }));
    assert.equal(r.fromSnapshot, 9);
    assert.deepStrictEqual(r.state, deriveState(readable(events, 24, new Set([19]))));
    const failing: StateSource = {
      ...view(store),
      latestSnapshot: () => Promise.reject(new Error('EIO')),
    };
    const r2 = await stateFromStore(failing);
    assert.deepStrictEqual(r2, { state: deriveState(events), fromSnapshot: null, replayed: 25 });
  });

  it('the snapshot really is used: its content shows through, and the id is the caller’s', async () => {
    const events = longLinearLog(30);
    const store = await memoryStore(events);
    const real = deriveState(events.slice(0, 20), { id: 'someone-else' });
    await store.writeSnapshot(19, encodeSnapshot({ ...real, title: 'from the snapshot' }));
    const r = await stateFromStore(store, { id: 'c' });
    assert.equal(r.fromSnapshot, 19);
    assert.equal(r.state.title, 'from the snapshot');
    assert.equal(r.state.id, 'c');
    assert.deepStrictEqual(r.state, { ...deriveState(events, { id: 'c' }), title: 'from the snapshot' });
  });

  it('empty store, and atIndex outside the log', async () => {
    const empty = new MemoryEventStore<Stored>({ codec: conversationEventCodec });
    assert.deepStrictEqual(await stateFromStore(empty, { id: 'c' }), {
      state: initialState('c'),
      fromSnapshot: null,
      replayed: 0,
    });
    const store = await memoryStore(longLinearLog(5));
    for (const at of [-1, 5, 1.5, Number.NaN]) {
      await assert.rejects(stateFromStore(store, { atIndex: at }), RangeError, `atIndex ${at}`);
    }
    await assert.rejects(stateFromStore(empty, { atIndex: 0 }), RangeError);
  });

  it('on a SegmentEventStore: snapshots written by the log, a damaged one and a damaged record', async () => {
    const dir = tmpDir('open-state');
    const events = chained(longLinearLog(45));
    // Every snapshot kept (a log this short keeps only its newest ones): older ones are served too.
    let store = await SegmentEventStore.open<Stored>(dir, {
      codec: conversationEventCodec,
      keepAllSnapshots: true,
    });
    let s: ConversationState = initialState('c');
    for (let i = 0; i < events.length; i++) {
      await store.append(events[i] as Stored);
      s = reduce(s, events[i]!);
      if ((i + 1) % 10 === 0) await store.writeSnapshot(i, encodeSnapshot(s));
    }
    // The newest snapshot has a valid frame (crc, event id) but is not a state: it must be skipped.
    await store.writeSnapshot(44, 'not a snapshot');
    await store.close();

    store = await SegmentEventStore.open<Stored>(dir, {
      codec: conversationEventCodec,
      keepAllSnapshots: true,
    });
    let r = await stateFromStore(store, { id: 'c' });
    assert.equal(r.fromSnapshot, 39);
    assert.equal(r.replayed, 5);
    assert.deepStrictEqual(r.state, deriveState(events, { id: 'c' }));
    r = await stateFromStore(store, { id: 'c', atIndex: 33 });
    assert.deepStrictEqual(r, {
      state: deriveState(events.slice(0, 34), { id: 'c' }),
      fromSnapshot: 29,
      replayed: 4,
    });
    await store.close();

    // Record 42 is damaged on disk; 43 names it as parent (unknown now), which is not a fork.
    const file = segmentPath(dir);
    flipByteInLine(file, lineOffsets(file)[42]!);
    store = await SegmentEventStore.open<Stored>(dir, { codec: conversationEventCodec, readOnly: true });
    assert.equal((await store.get(42)).kind, 'CorruptRecord');
    r = await stateFromStore(store, { id: 'c' });
    assert.equal(r.fromSnapshot, 39);
    assert.equal(r.replayed, 4);
    assert.deepStrictEqual(r.state, deriveState(readable(events, 44, new Set([42])), { id: 'c' }));
    await store.close();
  });
});
