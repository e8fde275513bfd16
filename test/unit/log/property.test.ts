// Property: any sequence of appends (valid or not, durable or not, with reopens in between) is
// accepted or refused exactly as the in-memory model does, and reopening yields the same records.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  type EventStore,
  MemoryEventStore,
  OpenHandsDirStore,
  SegmentEventStore,
  type StoredEvent,
} from '../../../src/core/log';
import { cleanupTmp, tmpDir } from './helpers';

type Cmd =
  | {
      t: 'append';
      id: number;
      parent: 'none' | 'null' | number;
      size: number;
      durable: boolean;
      text: string;
    }
  | { t: 'reopen' };

// Ids from a small pool, so duplicates happen; parents point into the pool, so unknown ones too.
const idOf = (n: number) => `0000000${n.toString(16)}-aaaa-4bbb-8ccc-${n.toString(16).padStart(12, '0')}`;

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('append' as const),
      id: fc.nat({ max: 60 }),
      parent: fc.oneof(fc.constant('none' as const), fc.constant('null' as const), fc.nat({ max: 60 })),
      size: fc.oneof(fc.nat({ max: 50 }), fc.integer({ min: 200, max: 9000 })),
      durable: fc.boolean(),
      text: fc.string({ maxLength: 12, unit: 'binary' }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'reopen' as const }) },
);

function toEvent(c: Extract<Cmd, { t: 'append' }>): StoredEvent {
  const e: StoredEvent = { id: idOf(c.id), kind: 'PropEvent', body: c.text + 'x'.repeat(c.size), n: c.size };
  if (c.parent === 'null') e.parent_id = null;
  else if (c.parent !== 'none') e.parent_id = idOf(c.parent);
  return e;
}

async function outcome(p: Promise<number>): Promise<string> {
  try {
    return `ok ${await p}`;
  } catch (err) {
    return `err ${(err as { code?: string }).code}`;
  }
}

async function check(open: (dir: string) => Promise<EventStore>, cmds: Cmd[]): Promise<void> {
  const dir = tmpDir('prop');
  const model = new MemoryEventStore();
  let store = await open(dir);
  try {
    for (const c of cmds) {
      if (c.t === 'reopen') {
        await store.close();
        store = await open(dir);
        continue;
      }
      const e = toEvent(c);
      assert.equal(await outcome(store.append(e, { durable: c.durable })), await outcome(model.append(e)));
    }
    await store.close();
    store = await open(dir);
    assert.equal(store.length, model.length);
    assert.deepEqual(await store.slice(), await model.slice());
    for (let i = 0; i < model.length; i += 7) {
      const id = (await model.get(i)).id;
      assert.equal(await store.indexOf(id), i);
    }
  } finally {
    await store.close();
    cleanupTmp();
  }
}

describe('property: appends then reopen yield the same records', function () {
  this.timeout(120_000);

  it('SegmentEventStore (small segments and stride, so rolls and index entries happen)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { maxLength: 60 }), (cmds) =>
        check(
          (d) => SegmentEventStore.open(d, { segmentBytes: 8192, sparseStride: 4, checkpointRecords: 8 }),
          cmds,
        ),
      ),
      { numRuns: 200 },
    );
  });

  it('OpenHandsDirStore', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { maxLength: 25 }), (cmds) =>
        check((d) => OpenHandsDirStore.open(d), cmds),
      ),
      { numRuns: 40 },
    );
  });
});
