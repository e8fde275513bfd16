// Text from a model, a tool or a file name, made safe to print: terminal escape sequences, carriage
// returns and bidirectional overrides could hide or reorder what a user reads, and a newline could
// fake a status line. Such characters are written out as escapes (`\n`, `\u001b`) instead. The escapes
// are JSON's, so a JSON line passed through stays the same JSON.

/**
 * C0 controls, DEL, C1 controls (U+009B starts a sequence on many terminals), the bidirectional
 * marks and overrides, and the Unicode line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One line: every control character, newlines included, escaped. */
export function printableLine(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Lines: like printableLine, but newlines stay (for text meant to span lines). */
export function printableText(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escape);
}
