// Events a log once held and no longer has. The segments are the log, but meta.json, the sparse
// index, ids.idx and the snapshots each record how far it reached (see FORMAT.md): when the
// segments found fall short of that, or a segment number is missing, the difference was lost
// (a deleted file, a restore from an older backup). It is reported, and a writer refuses to append
// over it until the user accepts the loss, which is recorded in lost.json so it is not reported
// as new again (and `show` can still say what was lost and when it was accepted).
import fs from 'node:fs';
import path from 'node:path';
import { writeFileDurable } from './durable-file';
import { segmentName } from './segment-files';

export const LOST_FILE = 'lost.json';

export interface LostRange {
  /** first lost index */
  from: number;
  /** one past the last lost index */
  to: number;
}

export interface LostEvents {
  /** segment files the log had that are gone, e.g. "000003.log" */
  missingSegments: string[];
  /** lost indices, in order */
  ranges: LostRange[];
  /** events in `ranges` */
  count: number;
  /** false when the evidence only gives a lower bound (more may have been lost) */
  exact: boolean;
  /** what recorded the lost events: "meta.json", "a snapshot", "the sparse index", "ids.idx" */
  evidence: string[];
}

export interface AcceptedLoss extends LostEvents {
  acceptedAt: string;
}

/** What was recorded about the log's extent before this open looked at the segments. */
export interface LogEvidence {
  /** segment numbers present, ascending */
  present: readonly number[];
  /** records meta.json says were synced, and the segment a clean close ended in */
  metaCheckpoint: number;
  metaEndSegNo: number | null;
  /** the last sparse-index entry meta.json vouches for */
  lastSparse: { seq: number; segNo: number } | null;
  /** index of the newest snapshot file (written only once the events it covers were synced) */
  newestSnapshot: number | null;
  /** hashes in ids.idx: one per record written, a hint only when no segment is left at all */
  idsCount: number;
  /** segment numbers whose loss the user already accepted */
  accepted: ReadonlySet<number>;
}

/** Segment numbers the log had (1..highest known) that are neither present nor accepted as lost. */
export function missingSegmentNos(ev: LogEvidence): number[] {
  const present = new Set(ev.present);
  const highest = Math.max(
    ev.present[ev.present.length - 1] ?? 0,
    ev.metaEndSegNo ?? 0,
    ev.lastSparse?.segNo ?? 0,
  );
  const out: number[] = [];
  for (let no = 1; no <= highest; no++) if (!present.has(no) && !ev.accepted.has(no)) out.push(no);
  return out;
}

/**
 * Whether a segment is gone, which shows without reading any record: one missing from the
 * numbering, or none left of a log that reached past its first record.
 */
export function segmentsGone(ev: LogEvidence): boolean {
  if (missingSegmentNos(ev).length > 0) return true;
  if (ev.present.length > 0) return false;
  const reached = Math.max(ev.metaCheckpoint, (ev.newestSnapshot ?? -1) + 1, ev.idsCount);
  return reached > 0 || ev.lastSparse !== null;
}

/**
 * The loss, given what the segments hold now: `length` slots, among which `holes` are slots the
 * scan found missing in the middle (records simply absent, not damaged bytes).
 */
export function findLostEvents(
  ev: LogEvidence,
  length: number,
  holes: readonly LostRange[],
): LostEvents | null {
  const missing = missingSegmentNos(ev);
  const ranges = [...holes];
  const evidence = new Set<string>();
  let exact = true;
  const claims: { end: number; by: string; exact: boolean }[] = [
    { end: ev.metaCheckpoint, by: 'meta.json', exact: ev.metaEndSegNo !== null },
    { end: ev.newestSnapshot === null ? 0 : ev.newestSnapshot + 1, by: 'a snapshot', exact: false },
    { end: ev.lastSparse ? ev.lastSparse.seq + 1 : 0, by: 'the sparse index', exact: false },
  ];
  // Without any segment, ids.idx still counts the records written (it is not synced with them,
  // but it is never written ahead of the log, so it can only undercount).
  if (ev.present.length === 0) claims.push({ end: ev.idsCount, by: 'ids.idx', exact: false });
  const end = Math.max(...claims.map((c) => c.end));
  if (end > length) {
    ranges.push({ from: length, to: end });
    for (const c of claims) if (c.end > length) evidence.add(c.by);
    exact = claims.some((c) => c.end === end && c.exact);
  }
  if (missing.length > 0) evidence.add('the segment numbering');
  if (missing.length === 0 && ranges.length === 0) return null;
  const lastPresent = ev.present[ev.present.length - 1] ?? 0;
  if (ranges.length === 0 && missing.some((no) => no > lastPresent)) {
    // A later segment is gone but nothing says how many records it held: at least one (a segment
    // is only created to hold a record).
    ranges.push({ from: length, to: length + 1 });
    exact = false;
  }
  return {
    missingSegments: missing.map(segmentName),
    ranges,
    count: ranges.reduce((n, r) => n + (r.to - r.from), 0),
    exact,
    evidence: [...evidence],
  };
}

/** Contiguous runs of `indices` (ascending). */
export function runsOf(indices: Iterable<number>): LostRange[] {
  const out: LostRange[] = [];
  for (const i of indices) {
    const last = out[out.length - 1];
    if (last && last.to === i) last.to = i + 1;
    else out.push({ from: i, to: i + 1 });
  }
  return out;
}

/** One line for people: how many events, which indices, which files. */
export function describeLostEvents(l: LostEvents): string {
  const n = `${l.exact ? '' : 'at least '}${l.count} event${l.count === 1 ? '' : 's'}`;
  const where = l.ranges
    .map((r) => (r.to - r.from === 1 ? `#${r.from}` : `#${r.from}-#${r.to - 1}`))
    .join(', ');
  const files = l.missingSegments.length
    ? `segments/${l.missingSegments.join(', segments/')} ${l.missingSegments.length === 1 ? 'is' : 'are'} missing`
    : 'the segments end early';
  const what = `${n} (${where}) recorded earlier ${l.count === 1 && l.exact ? 'is' : 'are'} lost`;
  return `${what}: ${files} (known from ${l.evidence.join(', ')})`;
}

/** Losses the user accepted earlier, oldest first; [] when none (or the file is unreadable). */
export function readAcceptedLosses(dir: string): AcceptedLoss[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, LOST_FILE), 'utf8');
  } catch {
    return [];
  }
  try {
    const v = JSON.parse(text) as { accepted?: unknown };
    return Array.isArray(v.accepted) ? (v.accepted as AcceptedLoss[]) : [];
  } catch {
    return [];
  }
}

/** Segment numbers named by accepted losses. */
export function acceptedSegmentNos(accepted: readonly AcceptedLoss[]): Set<number> {
  const out = new Set<number>();
  for (const a of accepted) {
    for (const name of a.missingSegments ?? []) {
      const no = Number.parseInt(name, 10);
      if (Number.isInteger(no)) out.add(no);
    }
  }
  return out;
}

/** Adds `loss` to lost.json (durably: it is what lets the log be written again). */
export function recordAcceptedLoss(dir: string, loss: LostEvents, at = new Date()): AcceptedLoss {
  const entry: AcceptedLoss = { ...loss, acceptedAt: at.toISOString() };
  const accepted = [...readAcceptedLosses(dir), entry];
  const doc = { format: 'logbook-lost-events', version: 1, accepted };
  writeFileDurable(path.join(dir, LOST_FILE), JSON.stringify(doc, null, 2) + '\n');
  return entry;
}
