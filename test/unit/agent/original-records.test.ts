// The records a Logbook export kept as stored are read forward as an import asks for them, a
// chunk at a time, never the whole file at once.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OriginalRecords, originalRecordLine } from '../../../src/core/agent/sdk-export-pipeline';
import { applyPatch, OriginalRecordsWriter, restamp } from '../../../src/core/agent/original-records';

const recordOf = (kept: ReturnType<OriginalRecords['at']>) =>
  kept && 'record' in kept ? kept.record : undefined;

describe('OriginalRecords', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'logbook-originals-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each kept record at its index, across chunk boundaries and multi-byte characters', () => {
    const file = join(dir, 'originals.jsonl');
    // Records longer than the 1 MiB read chunk, of characters that take 2 to 4 bytes.
    const big = (i: number) => `{"n":${i},"text":"${'é€😀'.repeat(150_000 + i)}"}`;
    writeFileSync(file, [0, 3, 4, 9].map((i) => originalRecordLine(i, big(i))).join(''));
    const r = OriginalRecords.open(file)!;
    const got = Array.from({ length: 12 }, (_, i) => recordOf(r.at(i)));
    assert.deepEqual(
      got.map((x, i) => (x === undefined ? undefined : x === big(i))),
      [
        true,
        undefined,
        undefined,
        true,
        true,
        undefined,
        undefined,
        undefined,
        undefined,
        true,
        undefined,
        undefined,
      ],
    );
    r.close();
  });

  it('skips a damaged line and one out of order: those records are imported as exported', () => {
    const file = join(dir, 'originals.jsonl');
    writeFileSync(
      file,
      originalRecordLine(1, 'one') +
        '{"index": 2, "record": \n' +
        originalRecordLine(5, 'five') +
        originalRecordLine(3, 'three, out of order') +
        '\n' +
        originalRecordLine(7, 'seven'),
    );
    const r = OriginalRecords.open(file)!;
    assert.deepEqual(
      Array.from({ length: 9 }, (_, i) => recordOf(r.at(i))),
      [undefined, 'one', undefined, undefined, undefined, 'five', undefined, 'seven', undefined],
    );
  });

  it('is null without the file', () => {
    assert.equal(OriginalRecords.open(join(dir, 'none.jsonl')), null);
  });
});

describe('OriginalRecordsWriter', () => {
  const encode = (e: object) => JSON.stringify(e);
  const exported = (e: object) => ({ event: e, encoded: JSON.stringify(e) });

  it('keeps the common stamp once, other stamps and changed fields per record, whole records only when needed', () => {
    let dir = '';
    try {
      dir = mkdtempSync(join(tmpdir(), 'logbook-originals-'));
      const w = new OriginalRecordsWriter();
      const main = { agent_name: 'main', branch: 'main' };
      const a = { id: 'a', kind: 'MessageEvent', text: 'hi' };
      const b = { id: 'b', kind: 'MessageEvent', text: 'child' };
      const c = {
        id: 'c',
        kind: 'SystemPromptEvent',
        tools: ['logbook form'],
        text: 'long prompt '.repeat(50),
      };
      w.add(0, encode({ ...a, ...main }), [exported(a)], encode);
      w.add(1, encode({ ...b, agent_name: 'explore', branch: 'main.explore.1' }), [exported(b)], encode);
      w.add(2, encode({ ...c, ...main }), [exported({ ...c, tools: ['sdk form'] })], encode);
      w.add(3, encode({ id: 'd', kind: 'ConversationStateUpdateEvent', key: 'checkpoint' }), [], encode);
      w.add(
        4,
        encode({ id: 'e', kind: 'MessageEvent' }),
        [exported({ id: 'e', kind: 'MessageEvent' })],
        encode,
      );
      w.add(5, encode({ ...a, id: 'f', ...main }), [exported({ ...a, id: 'f' })], encode);
      const text = w.text()!;
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines[0], { stamp: main });
      assert.deepEqual(
        lines.slice(1).map((l) => l.index),
        [1, 2, 3, 4],
        'nothing for the records that only lost the common stamp',
      );
      assert.ok(!text.includes('long prompt'), 'only the changed field of the prompt');
      const file = join(dir, 'o.jsonl');
      writeFileSync(file, text);
      const r = OriginalRecords.open(file)!;
      const back = (i: number, e: object) => {
        const k = r.at(i)!;
        if ('record' in k) return k.record;
        if ('patch' in k) return encode(applyPatch(e, k.patch));
        return encode(k.stamp ? restamp(e, k.stamp) : e);
      };
      assert.equal(back(0, a), encode({ ...a, ...main }));
      assert.equal(back(1, b), encode({ ...b, agent_name: 'explore', branch: 'main.explore.1' }));
      assert.equal(back(2, { ...c, tools: ['sdk form'] }), encode({ ...c, ...main }));
      assert.match(back(3, {}), /checkpoint/);
      assert.equal(back(4, { id: 'e', kind: 'MessageEvent' }), encode({ id: 'e', kind: 'MessageEvent' }));
      assert.equal(back(5, { ...a, id: 'f' }), encode({ ...a, id: 'f', ...main }));
      r.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes nothing for a log the export leaves as it is', () => {
    const w = new OriginalRecordsWriter();
    const e = { id: 'a', kind: 'MessageEvent' };
    w.add(0, encode(e), [exported(e)], encode);
    assert.equal(w.text(), null);
  });
});
