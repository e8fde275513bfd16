// Lost segments: what meta.json, the indexes and the snapshots recorded is compared with the
// segments found, the difference is reported, and nothing is written over it until accepted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EventStoreError, SegmentEventStore, type SegmentStoreOptions } from '../../../src/core/log';
import { type TestEvent, cleanupTmp, ev, lineOffsets, segmentPath, tmpDir } from './helpers';

const open = (dir: string, o: SegmentStoreOptions<TestEvent> = {}) =>
  SegmentEventStore.open<TestEvent>(dir, o);

async function build(dir: string, n: number, o: SegmentStoreOptions<TestEvent> = {}): Promise<void> {
  const s = await open(dir, o);
  for (let i = 0; i < n; i++) await s.append(ev(`e${i}`, { text: `payload ${i} `.repeat(3) }));
  await s.close();
}

const ids = async (s: SegmentEventStore<TestEvent>) => (await s.slice()).map((e) => e.id);
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => `e${a + k}`);
const segments = (dir: string) => fs.readdirSync(path.join(dir, 'segments')).sort();

/** Every file of the log, with its bytes, so a refused open can be shown to have written nothing. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

async function refusedWithoutWriting(dir: string, pattern: RegExp): Promise<void> {
  const before = files(dir);
  await assert.rejects(open(dir), (err: unknown) => {
    assert.ok(err instanceof EventStoreError);
    assert.equal(err.code, 'LOST_DATA');
    assert.match(err.message, pattern);
    return true;
  });
  assert.deepEqual(files(dir), before, 'a refused open writes nothing');
  assert.ok(!fs.existsSync(path.join(dir, 'LOCK')), 'and leaves no lock behind');
}

describe('SegmentEventStore lost events', () => {
  let dir: string;
  beforeEach(() => {
    dir = tmpDir('lost');
  });
  afterEach(() => cleanupTmp());

  it('the only segment deleted: reported as lost, never reopened as an empty log', async () => {
    await build(dir, 12);
    fs.rmSync(segmentPath(dir, 1));

    const r = await open(dir, { readOnly: true });
    assert.equal(r.length, 0);
    const lost = r.openReport.lostEvents;
    assert.deepEqual(lost?.missingSegments, ['000001.log']);
    assert.deepEqual(lost?.ranges, [{ from: 0, to: 12 }]);
    assert.equal(lost?.count, 12);
    assert.equal(lost?.exact, true, 'a clean close recorded exactly where the log ended');
    assert.ok(lost?.evidence.includes('meta.json'));
    assert.equal(r.lostOnOpen?.count, 12);
    await r.close();

    await refusedWithoutWriting(dir, /12 events \(#0-#11\).*segments\/000001\.log is missing/);
    assert.deepEqual(segments(dir), []);
  });

  it('the last of several segments deleted: its events are reported with the count meta.json recorded', async () => {
    await build(dir, 120, { segmentBytes: 2048, sparseStride: 4 });
    const segs = segments(dir);
    assert.ok(segs.length >= 3, `${segs.length} segments`);
    const last = path.join(dir, 'segments', segs[segs.length - 1]!);
    const inLast = lineOffsets(last).length;
    fs.rmSync(last);

    const r = await open(dir, { readOnly: true });
    assert.equal(r.length, 120 - inLast);
    assert.deepEqual(r.openReport.lostEvents?.ranges, [{ from: 120 - inLast, to: 120 }]);
    assert.equal(r.openReport.lostEvents?.count, inLast);
    assert.equal(r.openReport.lostEvents?.exact, true);
    assert.deepEqual(r.openReport.lostEvents?.missingSegments, [segs[segs.length - 1]]);
    // What is left is intact.
    assert.deepEqual(await ids(r), range(0, 120 - inLast));
    await r.close();

    await refusedWithoutWriting(dir, new RegExp(`${inLast} events`));
  });

  it('accepting the loss records it, keeps every event left, and lets the log go on', async () => {
    await build(dir, 120, { segmentBytes: 2048, sparseStride: 4 });
    const w = await open(dir);
    await w.writeSnapshot(119, '{"at":119}');
    await w.writeSnapshot(20, '{"at":20}');
    await w.close();
    const segs = segments(dir);
    const lastFile = segs[segs.length - 1]!;
    const inLast = lineOffsets(path.join(dir, 'segments', lastFile)).length;
    fs.rmSync(path.join(dir, 'segments', lastFile));
    const left = 120 - inLast;

    const s = await open(dir, { acceptLostEvents: true });
    assert.equal(s.openReport.lostEvents?.count, inLast);
    assert.equal(s.openReport.acceptedLosses.length, 1);
    assert.deepEqual(await ids(s), range(0, left));
    // The snapshot after lost events is moved aside, not deleted, and never served.
    assert.ok(fs.existsSync(path.join(dir, 'lost', 'snapshots', 'snap-000000000119.json')));
    assert.equal((await s.latestSnapshot())?.json, '{"at":20}');
    await s.append(ev('after-loss'));
    await s.close();

    const again = await open(dir);
    assert.equal(again.openReport.lostEvents, null, 'an accepted loss is not reported as new');
    assert.equal(again.openReport.acceptedLosses[0]?.count, inLast);
    assert.match(again.openReport.acceptedLosses[0]!.acceptedAt, /^\d{4}-/);
    assert.deepEqual(await ids(again), [...range(0, left), 'after-loss']);
    await again.close();
    const lostJson = JSON.parse(fs.readFileSync(path.join(dir, 'lost.json'), 'utf8')) as {
      accepted: { ranges: unknown }[];
    };
    assert.deepEqual(lostJson.accepted[0]?.ranges, [{ from: left, to: 120 }]);
  });

  it('a deleted segment and meta.json: the snapshots still say how far the log reached', async () => {
    const s = await open(dir);
    for (let i = 0; i < 30; i++) await s.append(ev(`e${i}`));
    await s.writeSnapshot(24, '{}');
    await s.close();
    fs.rmSync(path.join(dir, 'meta.json'));
    fs.rmSync(segmentPath(dir, 1));
    const r = await open(dir, { readOnly: true });
    assert.equal(r.openReport.lostEvents?.exact, false);
    assert.deepEqual(r.openReport.lostEvents?.ranges, [{ from: 0, to: 30 }]);
    assert.ok(r.openReport.lostEvents?.evidence.includes('a snapshot'));
    await r.close();
    await assert.rejects(open(dir), /at least 30 events/);
  });

  it('a middle segment deleted: its records are reported lost, the later ones keep their index', async () => {
    await build(dir, 200, { segmentBytes: 2048, sparseStride: 4 });
    const segs = segments(dir);
    const victim = path.join(dir, 'segments', segs[1]!);
    const first = Number(fs.readFileSync(victim, 'utf8').split(' ')[1]);
    const n = lineOffsets(victim).length;
    fs.rmSync(victim);
    const r = await open(dir, { readOnly: true });
    assert.deepEqual(r.openReport.lostEvents?.ranges, [{ from: first, to: first + n }]);
    assert.deepEqual(r.openReport.lostEvents?.missingSegments, [segs[1]]);
    assert.equal((await r.get(199)).id, 'e199');
    await r.close();
    await refusedWithoutWriting(dir, new RegExp(`${n} events`));
    const s = await open(dir, { acceptLostEvents: true });
    await s.close();
    // Accepted once: later opens (a full scan included) do not report it again.
    fs.rmSync(path.join(dir, 'sparse.idx'));
    const again = await open(dir);
    assert.equal(again.openReport.lostEvents, null);
    assert.equal(again.length, 200);
    await again.close();
  });

  it('no false alarm: a reader opening while the writer appends and snapshots', async () => {
    const w = await open(dir, { segmentBytes: 1024 });
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 10; i++) await w.append(ev(`r${round}-${i}`));
      await w.writeSnapshot(w.length - 1, '{}');
      const r = await open(dir, { readOnly: true });
      assert.equal(r.openReport.lostEvents, null, `round ${round}`);
      await r.close();
    }
    await w.close();
    const again = await open(dir);
    assert.equal(again.openReport.lostEvents, null);
    await again.close();
  });
});
