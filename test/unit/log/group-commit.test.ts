// Durability policy: what a resolved append means, and that appends share fdatasyncs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SegmentEventStore } from '../../../src/core/log';
import { GroupCommit } from '../../../src/core/log/group-commit';
import { crc32, tableCrc32 } from '../../../src/core/log/record-format';
import { type TestEvent, cleanupTmp, ev, segmentPath, tmpDir } from './helpers';

/** An fdatasync we complete by hand, counting calls. */
function manualSync() {
  const calls: { fd: number; done: () => void }[] = [];
  return {
    calls,
    fdatasync: (fd: number) =>
      new Promise<void>((resolve) => {
        calls.push({ fd, done: resolve });
      }),
    completeAll() {
      for (const c of calls.splice(0)) c.done();
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit and durability', () => {
  afterEach(() => cleanupTmp());

  it('a durable append resolves only after fdatasync; an ordinary one once written', async () => {
    const dir = tmpDir('gc');
    const sync = manualSync();
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io: { fdatasync: sync.fdatasync },
      groupCommitMs: 10_000,
    });
    const ordinary = await s.append(ev('a'));
    assert.equal(ordinary, 0);
    // written, in the file, before any sync
    assert.match(fs.readFileSync(segmentPath(dir), 'utf8'), /"id":"a"/);
    assert.equal(sync.calls.length, 0);
    let resolved = false;
    const p = s.append(ev('b'), { durable: true }).then(() => (resolved = true));
    await tick();
    await tick();
    assert.equal(resolved, false, 'must wait for fdatasync');
    assert.equal(sync.calls.length, 1);
    sync.completeAll();
    await p;
    assert.equal(resolved, true);
    const closing = s.close();
    await tick();
    sync.completeAll();
    await closing;
  });

  it('many appends share a few fdatasyncs', async () => {
    const dir = tmpDir('gc');
    let syncs = 0;
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io: {
        fdatasync: (fd) => {
          syncs++;
          return new Promise((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));
        },
      },
      groupCommitMs: 5,
    });
    const ps: Promise<number>[] = [];
    for (let i = 0; i < 500; i++) ps.push(s.append(ev(`e${i}`), { durable: i % 50 === 49 }));
    await Promise.all(ps);
    assert.ok(syncs >= 1 && syncs <= 12, `${syncs} fdatasyncs for 500 appends`);
    await s.close();
  });

  it('ordinary appends are synced by the timer without anyone asking', async () => {
    const dir = tmpDir('gc');
    let syncs = 0;
    const s = await SegmentEventStore.open<TestEvent>(dir, {
      io: { fdatasync: async () => void syncs++ },
      groupCommitMs: 5,
    });
    await s.append(ev('a'));
    assert.equal(syncs, 0);
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(syncs, 1);
    await s.close();
  });

  it('GroupCommit: a waiter whose write came during a sync gets a second sync', async () => {
    const pending: (() => void)[] = [];
    const synced: number[] = [];
    const gc = new GroupCommit({
      sync: () => new Promise<void>((r) => pending.push(r)),
      delayMs: 1000,
      maxPendingBytes: 1 << 30,
      onSynced: (m) => synced.push(m),
    });
    gc.wrote(1, 10);
    const first = gc.durable(1);
    gc.wrote(2, 10);
    const second = gc.durable(2);
    assert.equal(pending.length, 1, 'one sync at a time');
    pending.shift()!();
    await first;
    await tick();
    assert.equal(pending.length, 1, 'a follow-up sync for mark 2');
    pending.shift()!();
    await second;
    assert.deepEqual(synced, [1, 2]);
    gc.dispose();
  });

  it('crc32: the table fallback agrees with zlib', () => {
    for (const s of ['', 'a', 'hello world', 'ü€😀', 'x'.repeat(10_000)]) {
      assert.equal(tableCrc32(Buffer.from(s)), crc32(Buffer.from(s)));
    }
    assert.equal(crc32('123456789'), 0xcbf43926);
  });
});
