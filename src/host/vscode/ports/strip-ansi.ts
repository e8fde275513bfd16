// Turns raw terminal output into plain text: removes escape sequences (CSI colors and cursor
// moves, OSC 633/133 shell-integration marks and titles, DCS/APC strings, charset selection) in
// their 7-bit and 8-bit forms, and renders carriage returns and backspaces the way the terminal
// would (a progress bar redrawn with \r leaves its last state, not every frame).

const ESC = 0x1b;
const BEL = 0x07;
/** Unterminated strings longer than this are dropped rather than held forever. */
const MAX_PENDING_ESCAPE = 64 * 1024;

/**
 * End (exclusive) of the escape sequence starting at `i`, `i + 1` for a lone introducer that
 * starts nothing valid, or -1 when the text ends before the sequence does.
 */
function escapeEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x9b) return csiEnd(s, i + 1);
  if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) return stringEnd(s, i + 1);
  // ESC
  if (i + 1 >= s.length) return -1;
  const n = s[i + 1];
  if (n === '[') return csiEnd(s, i + 2);
  if (n === ']' || n === 'P' || n === 'X' || n === '^' || n === '_') return stringEnd(s, i + 2);
  // nF / Fp / Fe / Fs escapes: intermediate bytes 0x20-0x2f, then one final byte 0x30-0x7e.
  let j = i + 1;
  while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
  if (j >= s.length) return -1;
  const f = s.charCodeAt(j);
  return f >= 0x30 && f <= 0x7e ? j + 1 : i + 1;
}

function csiEnd(s: string, j: number): number {
  while (j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x3f) j++; // parameters
  while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++; // intermediates
  if (j >= s.length) return -1;
  const f = s.charCodeAt(j);
  return f >= 0x40 && f <= 0x7e ? j + 1 : j; // malformed: drop the introducer and parameters only
}

/** OSC/DCS/SOS/PM/APC: ended by BEL, ESC \ or the 8-bit ST. */
function stringEnd(s: string, j: number): number {
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === BEL || c === 0x9c) return j + 1;
    if (c === ESC) {
      if (j + 1 >= s.length) return -1;
      if (s[j + 1] === '\\') return j + 2;
    }
  }
  return -1;
}

function isIntroducer(c: number): boolean {
  return c === ESC || c === 0x9b || c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f;
}

/**
 * Splits raw output before a trailing escape sequence (or CR) that the next chunk may complete,
 * so streamed output can be stripped piece by piece.
 */
export function splitAtIncompleteEscape(raw: string): [complete: string, pending: string] {
  let i = 0;
  let pendingFrom = -1;
  while (i < raw.length) {
    if (isIntroducer(raw.charCodeAt(i))) {
      const end = escapeEnd(raw, i);
      if (end === -1) {
        pendingFrom = raw.length - i > MAX_PENDING_ESCAPE ? -1 : i;
        break;
      }
      i = end;
    } else i++;
  }
  if (pendingFrom === -1 && raw.endsWith('\r')) pendingFrom = raw.length - 1;
  return pendingFrom === -1 ? [raw, ''] : [raw.slice(0, pendingFrom), raw.slice(pendingFrom)];
}

/** Removes escape sequences and other control characters, keeping text, tabs and newlines. */
export function removeEscapes(raw: string): string {
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (isIntroducer(c)) {
      const end = escapeEnd(raw, i);
      i = end === -1 ? raw.length : end;
      continue;
    }
    const keep =
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0d ||
      c === 0x08 ||
      (c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c < 0xa0));
    if (keep) out += raw[i];
    i++;
  }
  return out;
}

/** Applies \r (back to column 0, later text overwrites) and \b (one column left) per line. */
export function renderCarriageReturns(text: string): string {
  if (!text.includes('\r') && !text.includes('\b')) return text;
  const lines = text.split('\n');
  return lines
    .map((line) => {
      if (!line.includes('\r') && !line.includes('\b')) return line;
      const cells: string[] = [];
      let col = 0;
      for (let k = 0; k < line.length; k++) {
        const ch = line[k]!;
        if (ch === '\r') {
          // A CR right before the line feed is just the terminal's line ending.
          if (k === line.length - 1) break;
          col = 0;
        } else if (ch === '\b') col = Math.max(0, col - 1);
        else cells[col++] = ch;
      }
      return cells.join('');
    })
    .join('\n');
}

export function stripAnsi(raw: string): string {
  return renderCarriageReturns(removeEscapes(raw));
}
