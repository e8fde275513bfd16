// Pure text edits behind file_editor. Texts use '\n'; the tool converts CRLF files around them.

/** Start offsets of every occurrence of `needle`, overlapping ones included (they are ambiguous too). */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export type ReplaceResult =
  | { ok: true; text: string; firstLine: number; lastLine: number }
  | { ok: false; count: number; lines: number[] };

/** Replaces `oldStr` only when it occurs exactly once; otherwise says how often and where. */
export function replaceUnique(text: string, oldStr: string, newStr: string): ReplaceResult {
  const found = occurrences(text, oldStr);
  if (found.length !== 1)
    return { ok: false, count: found.length, lines: found.map((at) => lineAt(text, at)) };
  const at = found[0] as number;
  const result = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  const firstLine = lineAt(text, at);
  return { ok: true, text: result, firstLine, lastLine: firstLine + countNewlines(newStr) };
}

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

export type InsertResult =
  { ok: true; text: string; firstLine: number; lastLine: number } | { ok: false; lineCount: number };

/** Inserts `insert` after line `after` (0 = at the top). */
export function insertAfterLine(text: string, after: number, insert: string): InsertResult {
  const lines = splitLines(text);
  if (!Number.isInteger(after) || after < 0 || after > lines.length)
    return { ok: false, lineCount: lines.length };
  const added = splitLines(insert);
  if (added.length === 0) added.push('');
  lines.splice(after, 0, ...added);
  // Keep the file's final-newline convention; an empty file gets newline-terminated lines.
  const endsWithNewline = text === '' || text.endsWith('\n');
  return {
    ok: true,
    text: lines.join('\n') + (endsWithNewline ? '\n' : ''),
    firstLine: after + 1,
    lastLine: after + added.length,
  };
}

/** `cat -n` style: the line number right-aligned in six columns, a tab, the line. */
export function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, i) => `${String(firstLineNumber + i).padStart(6)}\t${line}`).join('\n');
}

/** Numbered lines around an edit, so the model can check the result without another view. */
export function snippetAround(text: string, firstLine: number, lastLine: number, context = 4): string {
  const lines = splitLines(text);
  const start = Math.max(1, firstLine - context);
  const end = Math.min(lines.length, lastLine + context);
  return numberLines(lines.slice(start - 1, end), start);
}

function countNewlines(text: string): number {
  let n = 0;
  for (const ch of text) if (ch === '\n') n++;
  return n;
}
