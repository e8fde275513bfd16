// Reads a segment log's records as the bytes on disk, in file order, without the store's indexes or
// repairs: what verification must judge, and what a signer hashes when it finds records unchained.
import fs from 'node:fs';
import path from 'node:path';
import { crcMatches, frameAt, jsonOf } from '../log/record-format';

export type RawRecord =
  | { ok: true; seq: number; bytes: Buffer; readonly json: string }
  /** bytes that are no valid record (bad checksum or framing); the walk stops there */
  | { ok: false; segment: string; offset: number; reason: string };

const SEGMENT_NAME = /^\d{6,}\.log$/;

export function segmentPaths(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(dir, 'segments'));
  } catch {
    return [];
  }
  return names
    .filter((n) => SEGMENT_NAME.test(n))
    .sort((a, b) => Number(a.slice(0, -4)) - Number(b.slice(0, -4)))
    .map((n) => path.join(dir, 'segments', n));
}

/** Every record in order; ends after the first unreadable one. */
export function* rawRecords(dir: string): Generator<RawRecord> {
  for (const file of segmentPaths(dir)) {
    const buf = fs.readFileSync(file);
    let pos = 0;
    while (pos < buf.length) {
      const f = frameAt(buf, pos, buf.length);
      if (f === 'short' || f === 'bad') {
        yield {
          ok: false,
          segment: path.basename(file),
          offset: pos,
          reason: f === 'short' ? 'a torn record' : 'bytes that are no record',
        };
        return;
      }
      if (!crcMatches(buf, pos, f)) {
        yield { ok: false, segment: path.basename(file), offset: pos, reason: 'its checksum does not match' };
        return;
      }
      const bytes = buf.subarray(f.jsonStart, f.jsonStart + f.jsonLen);
      yield {
        ok: true,
        seq: f.seq,
        bytes,
        get json() {
          return jsonOf(buf, f);
        },
      };
      pos += f.size;
    }
  }
}
