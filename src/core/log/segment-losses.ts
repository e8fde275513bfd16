// Events a segment log once held and no longer has, as opening it finds them (lost-events.ts has
// the rules): the evidence of how far the log reached, read before its segments are listed, and
// the record of a loss the user chose to go on without.
import path from 'node:path';
import {
  type AcceptedLoss,
  type LogEvidence,
  type LostEvents,
  type LostRange,
  acceptedSegmentNos,
  findLostEvents,
  missingSegmentNos,
  recordAcceptedLoss,
} from './lost-events';
import type { IndexCheckpoints } from './index-checkpoints';
import type { Meta } from './segment-meta';
import type { SegmentFiles } from './segment-files';
import type { SnapshotDir } from './snapshot-dir';
import type { SparseEntry } from './sparse-index';

export function logEvidence(
  meta: Meta | 'missing' | 'invalid',
  files: SegmentFiles,
  seen: {
    lastSparse: SparseEntry | null;
    newestSnapshot: number | null;
    idsCount: number;
    accepted: readonly AcceptedLoss[];
  },
): LogEvidence {
  return {
    present: files.numbers,
    metaCheckpoint: typeof meta === 'object' ? meta.checkpoint : 0,
    metaEndSegNo: typeof meta === 'object' ? (meta.end?.segNo ?? null) : null,
    lastSparse: seen.lastSparse,
    newestSnapshot: seen.newestSnapshot,
    idsCount: seen.idsCount,
    accepted: acceptedSegmentNos(seen.accepted),
  };
}

/** Segments gone from before the last one present (only a full scan finds which records they held). */
export function segmentsMissingBefore(evidence: LogEvidence, files: SegmentFiles): number {
  const lastPresent = files.count > 0 ? files.noAt(files.count - 1) : 0;
  return missingSegmentNos(evidence).filter((no) => no < lastPresent).length;
}

/** The events lost that no earlier acceptance covers, once the log's end is known. */
export function unacceptedLoss(
  evidence: LogEvidence,
  tail: { length: number; truncatedBytes: number; holes: readonly LostRange[] },
  accepted: readonly AcceptedLoss[],
): LostEvents | null {
  return findLostEvents(
    evidence,
    // A torn last record that was cut is reported as such (truncatedBytes), not again as lost.
    tail.length + (tail.truncatedBytes > 0 ? 1 : 0),
    tail.holes.filter((h) => !accepted.some((a) => a.ranges.some((r) => r.from <= h.from && h.to <= r.to))),
  );
}

/**
 * Records the user's choice to go on without `lost`: lost.json says so, the snapshots of the
 * lost events move to lost/snapshots, and meta.json stops claiming them (checkpoint 0: the next
 * open scans the log once and checkpoints it again). Returns the entry added to lost.json.
 */
export function acceptLoss(
  dir: string,
  lost: LostEvents,
  length: number,
  snapshots: SnapshotDir,
  checkpoints: IndexCheckpoints,
): AcceptedLoss {
  const entry = recordAcceptedLoss(dir, lost);
  snapshots.moveFrom(length, path.join(dir, 'lost', 'snapshots'));
  checkpoints.covered = 0;
  checkpoints.writeMetaSync(0);
  return entry;
}
