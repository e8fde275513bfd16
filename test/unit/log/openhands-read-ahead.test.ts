// An import reads a long OpenHands folder's event files ahead on a worker thread; what it reads
// must be what reading each file on the spot gives, bad files and all.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { eventFileName, OpenHandsDirStore, type Slot, type StoredEvent } from '../../../src/core/log';
import { FileReadAhead } from '../../../src/core/log/file-read-ahead';
import { cleanupTmp, tmpDir, uuid } from './helpers';

/** A folder of `n` events (more than a few of the worker's batches), with a gap, a bad file and a foreign one. */
function folder(n: number): string {
  const dir = tmpDir('oh-ahead');
  const events = path.join(dir, 'events');
  fs.mkdirSync(events, { recursive: true });
  for (let i = 0; i < n; i++) {
    if (i === 700) continue; // missing
    const id = uuid();
    const file = path.join(events, eventFileName(i, id));
    if (i === 1500) fs.writeFileSync(file, '{"id": "not json');
    else if (i === 2100)
      fs.mkdirSync(file); // a folder by an event's name: unreadable
    else if (i === 2500) fs.writeFileSync(file, JSON.stringify({ id: uuid(), kind: 'X', n: i }));
    else fs.writeFileSync(file, JSON.stringify({ id, kind: 'X', n: i }));
  }
  return dir;
}

/** What a slot says, comparable across stores (corrupt slots by their reason). */
const said = (s: Slot<StoredEvent>) => JSON.stringify(s);

describe('OpenHandsDirStore reading ahead', () => {
  afterEach(() => cleanupTmp());

  it('slices and iterates to the same slots, the same quarantine, as reading on the spot', async function () {
    this.timeout(20_000);
    const dir = folder(3000);
    const plain = await OpenHandsDirStore.open(dir, { readOnly: true });
    const ahead = await OpenHandsDirStore.open(dir, { readOnly: true, readAheadFrom: 0 });
    try {
      const expected = (await plain.slice(0)).map(said);
      assert.equal(expected.length, 3000);
      assert.ok(
        expected.filter((s) => s.includes('"reason"')).length >= 4,
        'the bad files are corrupt slots',
      );
      const got: string[] = [];
      for (let at = 0; at < ahead.length; at += 256) got.push(...(await ahead.slice(at, at + 256)).map(said));
      assert.deepEqual(got, expected);
      assert.deepEqual(ahead.quarantined, plain.quarantined);
      // Out of order, backwards: read on the spot, the same.
      assert.deepEqual((await ahead.slice(10, 20)).map(said), expected.slice(10, 20));
      const again = await OpenHandsDirStore.open(dir, { readOnly: true, readAheadFrom: 0 });
      const iterated: string[] = [];
      for await (const s of again.iterate(1000)) iterated.push(said(s));
      assert.deepEqual(iterated, expected.slice(1000));
      await again.close();
    } finally {
      await plain.close();
      await ahead.close();
    }
  });

  it('reads the files on another thread, and never more than a few batches ahead', async function () {
    this.timeout(20_000);
    const dir = folder(3000);
    const names = fs.readdirSync(path.join(dir, 'events')).sort();
    const reader = new FileReadAhead(path.join(dir, 'events'), names, 0);
    try {
      // This thread is blocked a while: whatever is waiting after was read by another one.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      const waiting = () => (reader as unknown as { ready: unknown[] }).ready.length;
      assert.ok(waiting() >= 1, 'read while this thread was blocked');
      assert.ok(names.length > 9 * 256, 'the folder is longer than the window');
      assert.ok(waiting() <= 8, `${waiting()} batches waiting`);
      assert.equal(await reader.take(0), fs.readFileSync(path.join(dir, 'events', names[0]!), 'utf8'));
      const last = await reader.take(names.length - 1);
      assert.equal(last, fs.readFileSync(path.join(dir, 'events', names.at(-1)!), 'utf8'));
    } finally {
      reader.stop();
    }
    assert.equal(await reader.take(0), undefined, 'after a stop every file is read on the spot');
  });
});
