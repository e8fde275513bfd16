// Whether a file tool's edit changes a package.json's scripts: the commands npm runs on install,
// test and start, in the user's own context. Any other field (a version, a description) is data.
import { insertAfterLine, replaceUnique } from '../tools/file-edits';

/** What a file_editor call would do to a file, as its arguments say. */
export interface FileChange {
  command: string;
  file_text?: unknown;
  old_str?: unknown;
  new_str?: unknown;
  insert_line?: unknown;
}

/**
 * True when the edit changes the `scripts` field, or when that cannot be told (the new text is not
 * JSON, an undo whose content only the tool remembers): asking once too often is the safe side.
 */
export function packageScriptsChange(change: FileChange, current: string | undefined): boolean {
  const after = newText(change, current?.replace(/\r\n/g, '\n'));
  if (after === undefined) return change.command !== 'str_replace' && change.command !== 'insert';
  const before = scriptsOf(current ?? '{}');
  const next = scriptsOf(after);
  if (next === null) return true;
  return JSON.stringify(before ?? {}) !== JSON.stringify(next);
}

/** The text after the edit; undefined when the edit would fail (nothing written) or is not known. */
function newText(change: FileChange, current: string | undefined): string | undefined {
  const str = (v: unknown) => (typeof v === 'string' ? v.replace(/\r\n/g, '\n') : '');
  if (change.command === 'create') return typeof change.file_text === 'string' ? change.file_text : '';
  if (current === undefined) return undefined;
  if (change.command === 'str_replace') {
    const r = replaceUnique(current, str(change.old_str), str(change.new_str));
    return r.ok ? r.text : undefined;
  }
  if (change.command === 'insert') {
    const line = typeof change.insert_line === 'number' ? change.insert_line : -1;
    const r = insertAfterLine(current, line, str(change.new_str));
    return r.ok ? r.text : undefined;
  }
  return undefined;
}

/** The scripts of a package.json text: {} without them, null when the text is not a JSON object. */
function scriptsOf(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    return (parsed as Record<string, unknown>).scripts ?? {};
  } catch {
    return null;
  }
}
