// What someone who can write a conversation's folder does to its log, for tests of `verify` in the
// CLI and in the editor: read its records, cut it back to an earlier signature, append an event.
import crypto from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeRecord } from '../../src/core/log/record-format';

/** A log's first segment file. */
export const firstSegment = (dir: string): string => join(dir, 'segments', '000001.log');

/** The store's indexes, rebuilt from the records when they are gone. */
function dropIndexes(dir: string): void {
  for (const f of ['meta.json', 'ids.idx', 'sparse.idx']) rmSync(join(dir, f), { force: true });
}

/** The JSON of each record in a log's first segment, in order. */
export function recordJsons(dir: string): string[] {
  return readFileSync(firstSegment(dir), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split(' ').slice(3).join(' '));
}

/** The event counts signatures.log's signature lines cover, in order. */
export function signedCounts(dir: string): number[] {
  return readFileSync(join(dir, 'signatures.log'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('s '))
    .map((l) => Number(l.split(' ')[1]));
}

/** Cuts a log and its signatures.log back to the first `count` events, as someone deleting a tail would. */
export function cutBack(dir: string, count: number): void {
  const jsons = recordJsons(dir).slice(0, count);
  writeFileSync(firstSegment(dir), Buffer.concat(jsons.map((j, i) => encodeRecord(i, j))));
  const file = join(dir, 'signatures.log');
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(`s ${count} `));
  writeFileSync(file, lines.slice(0, at + 1).join('\n') + '\n');
  dropIndexes(dir);
}

/** The last signature that covers fewer than all of a log's events (the count to cut back to). */
export function earlierSignedCount(dir: string): number | undefined {
  const total = recordJsons(dir).length;
  return signedCounts(dir)
    .filter((c) => c < total)
    .at(-1);
}

/** Appends one event to a log, a copy of its last with a new id, chained in signatures.log or not. */
export function appendEvent(dir: string, opts: { chainIt: boolean }): void {
  const jsons = recordJsons(dir);
  const last = JSON.parse(jsons.at(-1)!) as Record<string, unknown>;
  const json = JSON.stringify({ ...last, id: crypto.randomUUID() });
  appendFileSync(firstSegment(dir), encodeRecord(jsons.length, json));
  if (opts.chainIt)
    appendFileSync(
      join(dir, 'signatures.log'),
      `h ${jsons.length} ${crypto.hash('sha256', json, 'base64url')}\n`,
    );
  dropIndexes(dir);
}
