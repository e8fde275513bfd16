// The records a Logbook export kept as stored are read forward as an import asks for them, a
// chunk at a time, never the whole file at once.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OriginalRecords, originalRecordLine } from '../../../src/core/agent/sdk-export-pipeline';

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
    const got = Array.from({ length: 12 }, (_, i) => r.at(i));
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
      Array.from({ length: 9 }, (_, i) => r.at(i)),
      [undefined, 'one', undefined, undefined, undefined, 'five', undefined, 'seven', undefined],
    );
  });

  it('is null without the file', () => {
    assert.equal(OriginalRecords.open(join(dir, 'none.jsonl')), null);
  });
});
