// Pure text helpers for applying a new text to a document as the smallest replacement, so
// cursors, folding and the undo stack of an open editor stay where the user left them.

export interface Replacement {
  /** Offset in the old text where the replaced range starts. */
  start: number;
  /** Offset in the old text where the replaced range ends (exclusive). */
  end: number;
  /** Text that replaces old[start, end). */
  text: string;
}

/** True when `offset` falls inside a CRLF pair or a UTF-16 surrogate pair of `s`. */
function splitsPair(s: string, offset: number): boolean {
  if (offset <= 0 || offset >= s.length) return false;
  const before = s.charCodeAt(offset - 1);
  const after = s.charCodeAt(offset);
  if (before === 13 && after === 10) return true;
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** The single range of `oldText` to replace so that it becomes `newText` (common prefix and suffix kept). */
export function minimalReplacement(oldText: string, newText: string): Replacement {
  const max = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < max && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  while (start > 0 && (splitsPair(oldText, start) || splitsPair(newText, start))) start--;
  let endOld = oldText.length;
  let endNew = newText.length;
  while (
    endOld > start &&
    endNew > start &&
    oldText.charCodeAt(endOld - 1) === newText.charCodeAt(endNew - 1)
  ) {
    endOld--;
    endNew--;
  }
  while (endOld < oldText.length && (splitsPair(oldText, endOld) || splitsPair(newText, endNew))) {
    endOld++;
    endNew++;
  }
  return { start, end: endOld, text: newText.slice(start, endNew) };
}

export type LineEndingStyle = 'lf' | 'crlf' | 'mixed' | 'none';

export function lineEndingStyle(text: string): LineEndingStyle {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf > 0 && lf > 0) return 'mixed';
  return crlf > 0 ? 'crlf' : 'lf';
}
