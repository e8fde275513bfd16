// The OpenHands SDK layout: reads the real fixture conversation, round-trips, converts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  MemoryEventStore,
  OpenHandsDirStore,
  SegmentEventStore,
  type StoredEvent,
  copyEvents,
  detectBackend,
  eventFileName,
  isCorruptRecord,
  openEventStore,
} from '../../../src/core/log';
import { cleanupTmp, fixturesDir, tmpDir, uuid } from './helpers';

const fixtureLines = (): string[] =>
  fs
    .readFileSync(path.join(fixturesDir, 'real-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

/** An OpenHands conversation directory made from the fixture, the way the SDK lays it out. */
function fixtureConversation(): string {
  const dir = tmpDir('oh');
  fs.mkdirSync(path.join(dir, 'events'), { recursive: true });
  fs.copyFileSync(path.join(fixturesDir, 'base_state.json'), path.join(dir, 'base_state.json'));
  fixtureLines().forEach((line, i) => {
    const id = (JSON.parse(line) as { id: string }).id;
    fs.writeFileSync(path.join(dir, 'events', eventFileName(i, id)), line);
  });
  return dir;
}

describe('OpenHandsDirStore', () => {
  afterEach(() => cleanupTmp());

  it('reads the real OpenHands fixture: events in order, by id, and base_state.json', async () => {
    const lines = fixtureLines();
    assert.ok(lines.length >= 10);
    const dir = fixtureConversation();
    assert.equal(detectBackend(dir), 'openhands');
    const s = await OpenHandsDirStore.open(dir);
    assert.equal(s.length, lines.length);
    const all = await s.slice();
    all.forEach((e, i) => assert.deepEqual(e, JSON.parse(lines[i]!)));
    const obs = all.find((e) => e.kind === 'ObservationEvent')!;
    const action = await s.getById(obs.action_id as string);
    assert.equal(action?.kind, 'ActionEvent');
    assert.deepEqual(
      s.readBaseState(),
      JSON.parse(fs.readFileSync(path.join(fixturesDir, 'base_state.json'), 'utf8')),
    );
    await s.close();
  });

  it('round-trips: appends land as event-NNNNN-<id>.json next to the untouched originals', async () => {
    const dir = fixtureConversation();
    const before = new Map(
      fs.readdirSync(path.join(dir, 'events')).map((n) => [n, fs.readFileSync(path.join(dir, 'events', n))]),
    );
    const s = await OpenHandsDirStore.open(dir);
    const first = (await s.get(0)).id;
    const added: StoredEvent = {
      id: uuid(),
      kind: 'MessageEvent',
      source: 'user',
      parent_id: first,
      llm_message: { role: 'user', content: [{ type: 'text', text: 'héllo\nworld' }] },
    };
    assert.equal(await s.append(added, { durable: true }), before.size);
    s.writeBaseState({ ...(s.readBaseState() as object), execution_status: 'running' });
    await s.close();
    const names = fs.readdirSync(path.join(dir, 'events')).sort();
    assert.equal(names.length, before.size + 1);
    assert.equal(names[names.length - 1], `event-${String(before.size).padStart(5, '0')}-${added.id}.json`);
    for (const [n, bytes] of before) assert.deepEqual(fs.readFileSync(path.join(dir, 'events', n)), bytes);
    assert.deepEqual(
      JSON.parse(fs.readFileSync(path.join(dir, 'events', names[names.length - 1]!), 'utf8')),
      added,
    );
    const s2 = await openEventStore(dir);
    assert.equal(s2.length, before.size + 1);
    assert.deepEqual(await s2.get(before.size), added);
    assert.equal(
      (
        (await OpenHandsDirStore.open(dir, { readOnly: true })).readBaseState() as {
          execution_status: string;
        }
      ).execution_status,
      'running',
    );
    await s2.close();
  });

  it('converts OpenHands -> segment log -> OpenHands without changing an event', async () => {
    const src = await OpenHandsDirStore.open(fixtureConversation());
    const seg = await SegmentEventStore.open(tmpDir('seg'));
    assert.equal(await copyEvents(src, seg), src.length);
    const outDir = tmpDir('oh-out');
    const out = await OpenHandsDirStore.open(outDir);
    await copyEvents(seg, out);
    await out.close();
    const lines = fixtureLines();
    const names = fs.readdirSync(path.join(outDir, 'events')).sort();
    assert.equal(names.length, lines.length);
    names.forEach((n, i) => {
      const e = JSON.parse(lines[i]!) as { id: string };
      assert.equal(n, eventFileName(i, e.id));
      assert.deepEqual(JSON.parse(fs.readFileSync(path.join(outDir, 'events', n), 'utf8')), e);
    });
    await src.close();
    await seg.close();
  });

  it('serves a missing or unparsable event file as CorruptRecord and removes temp leftovers', async () => {
    const dir = fixtureConversation();
    const ev = path.join(dir, 'events');
    const names = fs.readdirSync(ev).sort();
    fs.rmSync(path.join(ev, names[3]!));
    fs.writeFileSync(path.join(ev, names[6]!), '{"id": "truncated');
    fs.writeFileSync(path.join(ev, `.${names[9]}.abcd1234.tmp`), 'half');
    const s = await OpenHandsDirStore.open(dir);
    assert.equal(s.length, names.length);
    assert.deepEqual(s.openReport.missing, [3]);
    assert.equal(s.openReport.tempFiles.length, 1);
    assert.equal(
      fs.readdirSync(ev).some((n) => n.endsWith('.tmp')),
      false,
    );
    const three = await s.get(3);
    assert.ok(isCorruptRecord(three));
    assert.match(three.reason, /missing/);
    const six = await s.get(6);
    assert.ok(isCorruptRecord(six));
    assert.equal(s.quarantined.length, 1);
    assert.ok(fs.existsSync(s.quarantined[0]!.file!));
    assert.equal((await s.get(7)).id, JSON.parse(fixtureLines()[7]!).id);
    await s.close();
  });

  it('refuses ids OpenHands could not read back, and reads 6-digit indices', async () => {
    const dir = tmpDir('oh');
    const s = await OpenHandsDirStore.open(dir);
    await assert.rejects(
      s.append({ id: 'not/a-uuid', kind: 'X' }),
      (e: unknown) => (e as { code?: string }).code === 'INVALID_EVENT',
    );
    await s.close();
    const id = uuid();
    fs.writeFileSync(path.join(dir, 'events', `event-000000-${id}.json`), JSON.stringify({ id, kind: 'X' }));
    const s2 = await OpenHandsDirStore.open(dir);
    assert.equal(s2.length, 1);
    assert.equal(await s2.indexOf(id), 0);
    await s2.close();
  });

  it('agrees with the memory store on the same appends', async () => {
    const mem = new MemoryEventStore();
    const oh = await OpenHandsDirStore.open(tmpDir('oh'));
    for (const line of fixtureLines()) {
      const e = JSON.parse(line) as StoredEvent;
      await mem.append(e);
      await oh.append(e);
    }
    assert.deepEqual(await oh.slice(), await mem.slice());
    await oh.close();
  });
});
