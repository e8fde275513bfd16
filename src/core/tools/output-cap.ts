// Long outputs waste the context window; the model gets the head and the tail, and the whole text
// is kept in a file it can page through with file_editor `view`.

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

export interface CappedText {
  text: string;
  /** Characters removed from the middle (0 when the text fit). */
  removedChars: number;
}

/**
 * Keeps the first and last parts of `text` so the result (marker included) is at most about
 * `maxChars`. `marker(removed)` explains the cut, e.g. where the full text was saved.
 */
export function capMiddle(text: string, maxChars: number, marker: (removed: number) => string): CappedText {
  if (text.length <= maxChars) return { text, removedChars: 0 };
  // The marker length depends on the number it prints; measure with the worst case.
  const markerBudget = marker(text.length).length + 2;
  const keep = Math.max(0, maxChars - markerBudget);
  const headLength = Math.ceil(keep / 2);
  const tailLength = keep - headLength;
  const removed = text.length - headLength - tailLength;
  const head = text.slice(0, headLength);
  const tail = tailLength > 0 ? text.slice(text.length - tailLength) : '';
  return { text: `${head}\n${marker(removed)}\n${tail}`, removedChars: removed };
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
