/**
 * Which snapshots to keep. Opening reads the newest; an older one serves a state at an earlier
 * index (time travel) and a fallback when the newer ones no longer hold. Keeping every one would
 * make snapshot bytes grow with the square of the log's length, so only the newest few are kept,
 * then one per band of age, each band twice as wide as the one before: about log2(length / BAND)
 * snapshots in all, and a state at any index is at most about half its age away from one.
 */

/** Snapshots always kept, newest first. */
export const KEEP_NEWEST = 2;
/** Width, in events, of the first band of age after the newest snapshots. */
export const BAND = 512;

/** The indices among `indices` (in any order) to keep. */
export function snapshotsToKeep(indices: readonly number[]): Set<number> {
  const newestFirst = [...new Set(indices)].sort((a, b) => b - a);
  const keep = new Set(newestFirst.slice(0, KEEP_NEWEST));
  const newest = newestFirst[0];
  if (newest === undefined) return keep;
  const bandsTaken = new Set<number>();
  for (const index of newestFirst.slice(KEEP_NEWEST)) {
    // Ages 0..BAND-1 are band 0, BAND..3*BAND-1 band 1, 3*BAND..7*BAND-1 band 2, ...
    const band = Math.floor(Math.log2((newest - index) / BAND + 1));
    if (bandsTaken.has(band)) continue;
    bandsTaken.add(band);
    keep.add(index);
  }
  return keep;
}
