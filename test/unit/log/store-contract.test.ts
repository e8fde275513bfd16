// The EventStore contract, run against every backend.
import assert from 'node:assert/strict';
import {
  type EventStore,
  EventStoreError,
  MemoryEventStore,
  OpenHandsDirStore,
  SegmentEventStore,
} from '../../../src/core/log';
import { type TestEvent, cleanupTmp, ev, tmpDir, uuid } from './helpers';

interface Backend {
  name: string;
  persistent: boolean;
  open(dir: string): Promise<EventStore<TestEvent>>;
}

const backends: Backend[] = [
  { name: 'MemoryEventStore', persistent: false, open: async () => new MemoryEventStore<TestEvent>() },
  {
    name: 'SegmentEventStore',
    persistent: true,
    open: (dir) => SegmentEventStore.open<TestEvent>(dir, { segmentBytes: 2048 }),
  },
  { name: 'OpenHandsDirStore', persistent: true, open: (dir) => OpenHandsDirStore.open<TestEvent>(dir) },
];

async function rejectsWith(p: Promise<unknown>, code: string, re?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof EventStoreError, `expected EventStoreError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (re) assert.match(err.message, re);
    return true;
  });
}

for (const b of backends) {
  describe(`EventStore contract: ${b.name}`, () => {
    let dir: string;
    let store: EventStore<TestEvent>;
    beforeEach(async () => {
      dir = tmpDir('contract');
      store = await b.open(dir);
    });
    afterEach(async () => {
      await store.close();
      cleanupTmp();
    });

    it('appends, then get/slice/getById/indexOf return the records in order', async () => {
      const ids = Array.from({ length: 40 }, () => uuid());
      for (let i = 0; i < ids.length; i++) {
        const idx = await store.append(
          ev(ids[i]!, { parent_id: i ? ids[i - 1]! : null, text: 'x'.repeat(i * 37) }),
        );
        assert.equal(idx, i);
      }
      assert.equal(store.length, 40);
      assert.equal((await store.get(0)).id, ids[0]);
      assert.equal((await store.get(39)).text, 'x'.repeat(39 * 37));
      assert.deepEqual(
        (await store.slice(10, 13)).map((e) => e.id),
        ids.slice(10, 13),
      );
      assert.deepEqual(
        (await store.slice(-2)).map((e) => e.id),
        ids.slice(-2),
      );
      assert.deepEqual(await store.slice(5, 2), []);
      assert.equal((await store.getById(ids[17]!))?.parent_id, ids[16]);
      assert.equal(await store.indexOf(ids[25]!), 25);
      assert.equal(await store.indexOf(uuid()), -1);
      assert.equal(await store.getById(uuid()), undefined);
      await rejectsWith(store.get(40), 'OUT_OF_RANGE');
      await rejectsWith(store.get(-1), 'OUT_OF_RANGE');
    });

    it('iterates lazily from any index, including records appended meanwhile', async () => {
      const ids = Array.from({ length: 300 }, () => uuid());
      for (const id of ids.slice(0, 290)) await store.append(ev(id));
      const seen: string[] = [];
      for await (const e of store.iterate(280)) {
        seen.push(e.id);
        if (seen.length === 5) for (const id of ids.slice(290)) await store.append(ev(id));
      }
      assert.deepEqual(seen, ids.slice(280));
      const all: string[] = [];
      for await (const e of store.iterate()) all.push(e.id);
      assert.deepEqual(all, ids);
    });

    it('notifies subscribers once per append, in order, until unsubscribed', async () => {
      const got: [string, number][] = [];
      const off = store.subscribe((e, i) => got.push([e.id, i]));
      const a = uuid();
      const c = uuid();
      await store.append(ev(a));
      await store.append(ev(uuid()), { durable: true });
      await assert.rejects(store.append(ev(a)));
      off();
      await store.append(ev(c));
      assert.deepEqual(
        got.map((g) => g[1]),
        [0, 1],
      );
      assert.equal(got[0]![0], a);
    });

    it('a throwing listener neither fails the append nor starves other listeners', async () => {
      const errors: unknown[] = [];
      const s2 = b.persistent
        ? null
        : new MemoryEventStore<TestEvent>({ onListenerError: (e) => errors.push(e) });
      const target = s2 ?? store;
      let later = 0;
      target.subscribe(() => {
        throw new Error('listener bug');
      });
      target.subscribe(() => later++);
      const orig = console.error;
      console.error = (...a: unknown[]) => errors.push(a);
      try {
        assert.equal(await target.append(ev(uuid())), 0);
      } finally {
        console.error = orig;
      }
      assert.equal(later, 1);
      assert.equal(errors.length, 1);
      assert.equal(target.length, 1);
    });

    it('rejects duplicate ids and unknown parents with a coded error, leaving the log unchanged', async () => {
      const a = uuid();
      await store.append(ev(a));
      await rejectsWith(store.append(ev(a)), 'DUPLICATE_ID', new RegExp(a));
      const ghost = uuid();
      await rejectsWith(store.append(ev(uuid(), { parent_id: ghost })), 'UNKNOWN_PARENT', new RegExp(ghost));
      const noId = /non-empty string "id" and "kind"/;
      for (const bad of [{ id: '', kind: 'X' }, { id: uuid() }, { id: 'a', kind: '' }, [], null, 'e'])
        await rejectsWith(store.append(bad as unknown as TestEvent), 'INVALID_EVENT', noId);
      await rejectsWith(
        store.append({ id: uuid(), kind: 'X', parent_id: 5 } as unknown as TestEvent),
        'INVALID_EVENT',
        /parent_id must be a string or null/,
      );
      assert.equal(store.length, 1);
      // null parent and a known parent are fine
      await store.append(ev(uuid(), { parent_id: null }));
      await store.append(ev(uuid(), { parent_id: a }));
      assert.equal(store.length, 3);
    });

    it('finds a parent that is the event just appended, an older one or one from before a reopen, and no other', async () => {
      const ids = [uuid(), uuid(), uuid()];
      await store.append(ev(ids[0]!));
      await store.append(ev(ids[1]!, { parent_id: ids[0]! }));
      await store.append(ev(ids[2]!, { parent_id: ids[0]! }));
      // the event appended last has the id the new one names as its own, not as its parent
      const ghost = uuid();
      await rejectsWith(store.append(ev(ghost, { parent_id: ghost })), 'UNKNOWN_PARENT');
      await rejectsWith(store.append(ev(uuid(), { parent_id: uuid() })), 'UNKNOWN_PARENT');
      if (b.persistent) {
        await store.close();
        store = await b.open(dir);
      }
      await rejectsWith(store.append(ev(uuid(), { parent_id: ghost })), 'UNKNOWN_PARENT');
      const next = uuid();
      await store.append(ev(next, { parent_id: ids[2]! }));
      await store.append(ev(uuid(), { parent_id: next }));
      await store.append(ev(uuid(), { parent_id: ids[1]! }));
      assert.equal(store.length, 6);
    });

    it('copies appended events: mutating the object afterwards does not change the log', async () => {
      const e = ev(uuid(), { text: 'before' });
      await store.append(e);
      e.text = 'after';
      assert.equal((await store.get(0)).text, 'before');
    });

    it('stores snapshots and serves the newest at or before an index', async () => {
      const ids = Array.from({ length: 10 }, () => uuid());
      for (const id of ids) await store.append(ev(id));
      assert.equal(await store.latestSnapshot(), undefined);
      await store.writeSnapshot(3, '{"n":3}');
      await store.writeSnapshot(7, '{"n":7}');
      assert.deepEqual(await store.latestSnapshot(), { index: 7, eventId: ids[7], json: '{"n":7}' });
      assert.equal((await store.latestSnapshot(6))?.json, '{"n":3}');
      assert.equal(await store.latestSnapshot(2), undefined);
      await rejectsWith(store.writeSnapshot(10, '{}'), 'OUT_OF_RANGE');
    });

    it('refuses everything after close', async () => {
      await store.append(ev(uuid()));
      await store.close();
      await rejectsWith(store.append(ev(uuid())), 'CLOSED');
    });

    if (b.persistent) {
      it('reopens with the same records, ids and snapshots', async () => {
        const ids = Array.from({ length: 120 }, () => uuid());
        for (let i = 0; i < ids.length; i++) {
          await store.append(
            ev(ids[i]!, { parent_id: i % 3 ? ids[i - 1]! : null, text: `t${i}`.repeat(i % 50) }),
            {
              durable: i % 7 === 0,
            },
          );
        }
        await store.writeSnapshot(100, '{"s":100}');
        await store.close();
        store = await b.open(dir);
        assert.equal(store.length, 120);
        const back = await store.slice();
        assert.deepEqual(
          back.map((e) => e.id),
          ids,
        );
        assert.equal(back[77]!.text, 't77'.repeat(77 % 50));
        assert.equal(await store.indexOf(ids[5]!), 5);
        assert.equal((await store.getById(ids[64]!))?.id, ids[64]);
        assert.equal((await store.latestSnapshot())?.json, '{"s":100}');
        await rejectsWith(store.append(ev(ids[3]!)), 'DUPLICATE_ID');
        await store.append(ev(uuid(), { parent_id: ids[0]! }));
        assert.equal(store.length, 121);
      });

      it('a second opener of the same directory is read-only and says who holds the lock', async () => {
        await store.append(ev(uuid()));
        await store.flush();
        const other = await b.open(dir);
        try {
          assert.equal(other.readOnly, true);
          assert.match(other.lockHeldBy ?? '', new RegExp(`pid ${process.pid}`));
          assert.equal(other.length, 1);
          await rejectsWith(other.append(ev(uuid())), 'READ_ONLY', /lock/);
        } finally {
          await other.close();
        }
        assert.equal(store.readOnly, false);
        await store.append(ev(uuid()));
      });
    }
  });
}
