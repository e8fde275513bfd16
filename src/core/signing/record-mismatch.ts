// When a record is not the one signed at its position, the hashes around it tell what happened:
// content changed, an event inserted, removed or reordered. Apart from verify.ts, which walks the log.
import type { BadReason } from './verdict';

/** Why the record at `i` is not the one signed there. */
export function classify(
  i: number,
  hashes: string[],
  stored: string[],
  firstAt: Map<string, number>,
): { reason: BadReason; detail: string } {
  const j = firstAt.get(hashes[i]!);
  const signedLater = (from: number): boolean => {
    for (let k = from; k < hashes.length; k++) if (hashes[k] === stored[i]) return true;
    return false;
  };
  if (j === undefined) {
    if (hashes[i + 1] !== undefined && hashes[i + 1] === stored[i]) {
      return {
        reason: 'inserted',
        detail: `event ${i} was never signed: it was inserted before the event signed at ${i}`,
      };
    }
    return { reason: 'content changed', detail: `event ${i} is not what was signed: its content changed` };
  }
  if (j > i) {
    if (signedLater(i + 1))
      return {
        reason: 'reordered',
        detail: `the event at ${i} was signed at position ${j}: events were reordered`,
      };
    return {
      reason: 'removed',
      detail: `the event at ${i} was signed at position ${j}: ${j - i === 1 ? `event ${i} was` : `events ${i}–${j - 1} were`} removed`,
    };
  }
  return {
    reason: 'reordered',
    detail: `the event at ${i} was signed at position ${j}: events were reordered or copied`,
  };
}
