import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConversationIndexFile,
  deriveState,
  entryFromState,
  type IndexEntry,
  parseIndex,
  rebuildIndex,
  removeEntry,
  serializeIndex,
  upsertEntry,
} from '../../../src/core/state';
import { LogBuilder } from './builders';

function entry(id: string, updated: string | null, extra: Partial<IndexEntry> = {}): IndexEntry {
  return {
    id,
    title: `t-${id}`,
    status: 'idle',
    created: updated,
    updated,
    eventCount: 1,
    cost: 0,
    ...extra,
  };
}

describe('state: conversation index', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-index-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an entry summarizes a derived state', () => {
    const b = new LogBuilder();
    b.user('Refactor the parser please');
    b.status('running');
    b.usage('agent', { cost: 0.5 });
    b.usage('condenser', { cost: 0.25 });
    const e = entryFromState('conv-1', deriveState(b.events));
    assert.deepEqual(e, {
      id: 'conv-1',
      title: 'Refactor the parser please',
      status: 'running',
      created: b.events[0]!.timestamp,
      updated: b.last.timestamp,
      eventCount: 4,
      cost: 0.75,
    });
  });

  it('rebuild sorts newest first (never-updated last, ties by id) and keeps the newest of a repeated id', () => {
    const index = rebuildIndex([
      entry('b', '2026-01-02T00:00:00Z'),
      entry('z', null),
      entry('a', '2026-01-02T00:00:00Z'),
      entry('c', '2026-01-03T00:00:00Z'),
      entry('b', '2026-01-01T00:00:00Z', { title: 'older copy' }),
    ]);
    assert.deepEqual(
      index.entries.map((e) => e.id),
      ['c', 'a', 'b', 'z'],
    );
    assert.equal(index.entries.find((e) => e.id === 'b')!.title, 't-b');
  });

  it('upsert replaces and re-sorts; remove drops', () => {
    let index = rebuildIndex([entry('a', '2026-01-01T00:00:00Z'), entry('b', '2026-01-02T00:00:00Z')]);
    index = upsertEntry(index, entry('a', '2026-01-05T00:00:00Z', { eventCount: 9 }));
    assert.deepEqual(
      index.entries.map((e) => [e.id, e.eventCount]),
      [
        ['a', 9],
        ['b', 1],
      ],
    );
    assert.deepEqual(
      removeEntry(index, 'a').entries.map((e) => e.id),
      ['b'],
    );
  });

  it('parse: round trip; corrupt JSON and wrong shapes are reported, not thrown', () => {
    const index = rebuildIndex([entry('a', '2026-01-01T00:00:00Z')]);
    assert.deepEqual(parseIndex(serializeIndex(index)), { ok: true, index });
    const bad = [
      '{"version":1,"entries":[',
      '[]',
      '{"version":2,"entries":[]}',
      '{"version":1,"entries":[{"id":"a"}]}',
      JSON.stringify({ version: 1, entries: [{ ...entry('a', null), status: 'dancing' }] }),
    ];
    for (const text of bad) {
      const r = parseIndex(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.ok(r.detail.length > 0);
    }
  });

  it('file: missing -> rebuilt from the folders and saved; then loaded from the file', async () => {
    const file = new ConversationIndexFile(join(dir, 'sub', 'index.json'));
    let scans = 0;
    const scan = () => {
      scans++;
      return [entry('a', '2026-01-01T00:00:00Z'), entry('b', '2026-01-02T00:00:00Z')];
    };
    const first = await file.load(scan);
    assert.equal(first.source, 'rebuilt');
    assert.ok(first.source === 'rebuilt' && first.reason === 'missing');
    const second = await file.load(scan);
    assert.equal(second.source, 'file');
    assert.deepEqual(second.index, first.index);
    assert.equal(scans, 1);
  });

  it('file: corrupt -> rebuilt, reported with the reason, and repaired on disk', async () => {
    const path = join(dir, 'index.json');
    writeFileSync(path, '{"version":1,"entries":[{"id": tru');
    const file = new ConversationIndexFile(path);
    const loaded = await file.load(async () => [entry('x', '2026-01-01T00:00:00Z')]);
    assert.equal(loaded.source, 'rebuilt');
    if (loaded.source !== 'rebuilt') return;
    assert.equal(loaded.reason, 'corrupt');
    assert.match(loaded.detail, /not JSON/);
    const reread = await file.read();
    assert.ok(reread.ok);
    assert.deepEqual(
      JSON.parse(readFileSync(path, 'utf8')).entries.map((e: IndexEntry) => e.id),
      ['x'],
    );
  });

  it('save is atomic: writes through a temp file and leaves no temp file behind', async () => {
    const path = join(dir, 'index.json');
    const file = new ConversationIndexFile(path);
    await file.save(rebuildIndex([entry('a', null)]));
    await file.save(rebuildIndex([entry('b', null)]));
    assert.deepEqual(readdirSync(dir), ['index.json']);
    const r = await file.read();
    assert.ok(r.ok && r.index.entries[0]!.id === 'b');
  });

  it('a failed save leaves the previous file intact and no temp file', async () => {
    const path = join(dir, 'index.json');
    const file = new ConversationIndexFile(path);
    await file.save(rebuildIndex([entry('a', null)]));
    const before = readFileSync(path, 'utf8');
    const cyclic: IndexEntry = entry('b', null);
    (cyclic as unknown as { self: unknown }).self = cyclic; // JSON.stringify throws
    await assert.rejects(file.save({ entries: [cyclic] }));
    assert.equal(readFileSync(path, 'utf8'), before);
    assert.deepEqual(readdirSync(dir), ['index.json']);
  });
});
