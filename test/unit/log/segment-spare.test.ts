// The next segment is created ahead, so an append that rolls does not wait on creating a file; the
// roll takes it, or makes it at once when its open has not reported back; a spare left at close is
// an empty last segment the next writer continues in.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SegmentEventStore } from '../../../src/core/log';
import { holdsWithin } from '../../support/poll';
import { cleanupTmp, ev, segmentPath, tmpDir } from './helpers';

const text = 'x'.repeat(300);
const openFds = () => fs.readdirSync('/proc/self/fd').length;
const tick = () => new Promise((r) => setImmediate(r));

describe('segment spare', () => {
  afterEach(() => cleanupTmp());

  it('creates the next segment once the active one is half full, and the roll writes into it', async () => {
    const dir = tmpDir('spare');
    const store = await SegmentEventStore.open(dir, { segmentBytes: 4096 });
    let i = 0;
    // Past half of 4096 bytes, still short of a roll.
    while (fs.statSync(segmentPath(dir, 1)).size < 2600) await store.append(ev(`e${i++}`, { text }));
    // The open runs on libuv's pool, which a loaded machine can keep busy for a while: no append
    // happens meanwhile, so the file can only come from the spare.
    assert.ok(
      await holdsWithin(() => fs.existsSync(segmentPath(dir, 2)), 10_000, 5),
      'segment 2 made ahead of the roll',
    );
    assert.equal(fs.statSync(segmentPath(dir, 2)).size, 0);
    while (!fs.existsSync(segmentPath(dir, 3)) || fs.statSync(segmentPath(dir, 2)).size === 0) {
      await store.append(ev(`e${i++}`, { text }));
      await tick();
    }
    assert.ok(fs.statSync(segmentPath(dir, 2)).size > 0, 'the roll wrote into the spare');
    await store.close();
    const again = await SegmentEventStore.open(dir, { readOnly: true });
    assert.equal(again.length, i);
    assert.equal((await again.get(i - 1)).id, `e${i - 1}`);
    await again.close();
  });

  it('rolls at once when the spare has not reported back, and closes what it opened', async () => {
    const dir = tmpDir('spare');
    const before = openFds();
    const store = await SegmentEventStore.open(dir, { segmentBytes: 2048 });
    // No turn of the event loop between appends: no spare's open can report back before its roll.
    const n = 200;
    await Promise.all(Array.from({ length: n }, (_, k) => store.append(ev(`e${k}`, { text }))));
    await store.close();
    assert.equal(openFds(), before, 'no file left open');
    const segments = fs.readdirSync(path.join(dir, 'segments'));
    assert.ok(segments.length > 20, `${segments.length} segments`);
    const again = await SegmentEventStore.open(dir);
    assert.equal(again.length, n);
    for (const k of [0, 1, n / 2, n - 1]) assert.equal((await again.get(k)).id, `e${k}`);
    // The next writer goes on after the last record, in the empty spare if one was left.
    await again.append(ev('after', { text }));
    await again.close();
    const last = await SegmentEventStore.open(dir, { readOnly: true });
    assert.equal(last.length, n + 1);
    assert.equal((await last.get(n)).id, 'after');
    await last.close();
  });

  it('leaves a spare made before close as an empty last segment the next writer continues in', async () => {
    const dir = tmpDir('spare');
    const store = await SegmentEventStore.open(dir, { segmentBytes: 4096 });
    let i = 0;
    while (fs.statSync(segmentPath(dir, 1)).size < 2600) await store.append(ev(`e${i++}`, { text }));
    await tick();
    await store.close();
    assert.equal(fs.statSync(segmentPath(dir, 2)).size, 0);
    const again = await SegmentEventStore.open(dir, { segmentBytes: 4096 });
    assert.equal(again.length, i);
    await again.append(ev('next', { text }));
    await again.close();
    assert.ok(fs.statSync(segmentPath(dir, 2)).size > 0, 'written into the spare');
    const last = await SegmentEventStore.open(dir, { readOnly: true });
    assert.deepEqual(
      (await last.slice(-2)).map((e) => e.id),
      [`e${i - 1}`, 'next'],
    );
    await last.close();
  });

  it('a crash mid-write with the spare already made: the torn record is cut as the tail, not quarantined', async () => {
    const dir = tmpDir('spare');
    const store = await SegmentEventStore.open(dir, { segmentBytes: 4096 });
    let i = 0;
    while (fs.statSync(segmentPath(dir, 1)).size < 2600) await store.append(ev(`e${i++}`, { text }));
    assert.ok(await holdsWithin(() => fs.existsSync(segmentPath(dir, 2)), 10_000, 5), 'spare made');
    await store.close();
    // As a SIGKILL in the middle of the last write leaves it: no clean-close marker, the indexes
    // checkpointed short of the last record, and half of that record.
    const metaFile = path.join(dir, 'meta.json');
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { end?: unknown; checkpoint: number };
    delete meta.end;
    meta.checkpoint = i - 1;
    fs.writeFileSync(metaFile, JSON.stringify(meta));
    const full = fs.statSync(segmentPath(dir, 1)).size;
    fs.truncateSync(segmentPath(dir, 1), full - 150);
    assert.equal(fs.statSync(segmentPath(dir, 2)).size, 0);

    // A reader (another process, the writer maybe mid-record) hides the partial record, cuts nothing.
    const reader = await SegmentEventStore.open(dir, { readOnly: true });
    assert.deepEqual(reader.openReport.quarantined, []);
    assert.equal(reader.length, i - 1);
    await reader.close();
    assert.equal(fs.statSync(segmentPath(dir, 1)).size, full - 150);

    const again = await SegmentEventStore.open(dir, { segmentBytes: 4096 });
    assert.deepEqual(again.openReport.quarantined, []);
    assert.ok(again.openReport.truncatedBytes > 0, 'the torn bytes are reported as cut');
    assert.equal(again.length, i - 1);
    await again.append(ev('after', { text }));
    await again.close();
    const last = await SegmentEventStore.open(dir, { readOnly: true });
    assert.deepEqual(last.openReport.quarantined, []);
    assert.deepEqual(
      (await last.slice(-2)).map((e) => e.id),
      [`e${i - 2}`, 'after'],
    );
    await last.close();
  });
});
