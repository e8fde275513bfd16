// Which feed row shows the timeline's event: the last row at or before its seq (a result joins its
// action's row, status lines fold into one), found by bisection since rows are in seq order.
import type { Row } from './store';

export function rowAtSeq(rows: readonly Row[], seq: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
