/**
 * Which snapshots to keep. Opening reads the newest; an older one is where the state at an earlier
 * index (time travel: `logbook show --at`) starts replaying from, and a
 * fallback when the newer ones no longer hold. A snapshot holds state, not history (a few KB
 * whatever the log's length), so keeping one per STRIDE events makes snapshot bytes grow linearly
 * with the log, by about 0.1% of its bytes, while no position is more than about 2 × STRIDE events
 * past a kept snapshot (at most STRIDE + the writer's own interval for a Conversation's snapshots).
 *
 * The numbers: replaying costs about 25 µs an event read from the store (bench/STATE-RESULTS.md,
 * W3 baseline), so a stride of 1,000 bounds a position to a few tens of ms of replay (W3: 18 ms p50,
 * 35 ms max at 100,000 events); the benchmarks' 100,000-event conversation keeps 101 snapshots of
 * 2.6 KB on average, 0.3 MiB beside 315 MiB of log (bench/OPEN-RESULTS.md), where one per doubling
 * band of age kept about 10 and replayed up to half the log.
 */

/** Snapshots always kept, newest first. */
export const KEEP_NEWEST = 2;
/** Events per stride: of the older snapshots, the newest of each stride of the log is kept. */
export const STRIDE = 1000;

/** The indices among `indices` (in any order) to keep. */
export function snapshotsToKeep(indices: readonly number[]): Set<number> {
  const newestFirst = [...new Set(indices)].sort((a, b) => b - a);
  const keep = new Set(newestFirst.slice(0, KEEP_NEWEST));
  const stridesTaken = new Set<number>();
  for (const index of newestFirst) {
    const stride = Math.floor(index / STRIDE);
    if (stridesTaken.has(stride)) continue;
    stridesTaken.add(stride);
    keep.add(index);
  }
  return keep;
}
