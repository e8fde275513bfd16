// A large argument is stored once. An ActionEvent carries the model's tool call as JSON text
// (`tool_call.arguments`) and the action parsed from it (`action`), so a created file's text (or a
// long new_str) is in both. The stored record cuts the action field's JSON literal out of the
// arguments and notes where (`tool_call.arguments_refs`); reading puts it back byte for byte, so
// every reader sees the event as it was created, which is also how OpenHands writes it.
import type { Event } from './union';

/** Shorter strings are left alone: the note would cost more than it saves. */
export const MIN_SHARED_CHARS = 4096;

/** Where the JSON literal of `action[field]` was cut out of the stored arguments text. */
interface ArgumentsRef {
  at: number;
  field: string;
  /** The literal escaped every non-ASCII character (`\u00e9`), as Python's json.dumps does. */
  ascii?: true;
}

/** The record to store for `e`: the event itself unless an ActionEvent repeats a long argument. */
export function shareLongArguments(e: Event): Event | Record<string, unknown> {
  if (e.kind !== 'ActionEvent' || !e.action) return e;
  const args = e.tool_call.arguments;
  if (args.length < MIN_SHARED_CHARS) return e;
  const cuts: { start: number; end: number; ref: ArgumentsRef }[] = [];
  for (const [field, value] of Object.entries(e.action)) {
    if (typeof value !== 'string' || value.length < MIN_SHARED_CHARS) continue;
    // The \u-escaped form only differs from the plain one when the text has non-ASCII characters.
    for (const ascii of NON_ASCII.test(value) ? [false, true] : [false]) {
      const literal = literalOf(value, ascii);
      const start = args.indexOf(literal);
      if (start < 0) continue;
      cuts.push({ start, end: start + literal.length, ref: { at: 0, field, ...(ascii ? { ascii } : {}) } });
      break;
    }
  }
  if (cuts.length === 0) return e;
  cuts.sort((a, b) => a.start - b.start);
  let stored = '';
  let from = 0;
  const refs: ArgumentsRef[] = [];
  for (const cut of cuts) {
    if (cut.start < from) continue; // overlaps a literal already cut out: keep it in the text
    stored += args.slice(from, cut.start);
    refs.push({ ...cut.ref, at: stored.length });
    from = cut.end;
  }
  stored += args.slice(from);
  return { ...e, tool_call: { ...e.tool_call, arguments: stored, arguments_refs: refs } };
}

/**
 * Puts the cut-out literals back into a record just parsed from storage (changed in place).
 * Throws when the note does not fit the record: such a record cannot be trusted.
 */
export function restoreLongArguments(record: unknown): void {
  if (!isObject(record) || record.kind !== 'ActionEvent') return;
  const call = record.tool_call;
  if (!isObject(call) || call.arguments_refs === undefined) return;
  const refs = call.arguments_refs;
  const stored = call.arguments;
  const action = record.action;
  if (!Array.isArray(refs) || typeof stored !== 'string' || !isObject(action))
    throw new Error('tool_call.arguments_refs does not fit the record');
  let args = '';
  let from = 0;
  for (const ref of refs as unknown[]) {
    if (!isObject(ref)) throw new Error('tool_call.arguments_refs holds a non-object');
    const { at, field } = ref;
    const value = typeof field === 'string' ? action[field] : undefined;
    if (typeof at !== 'number' || !Number.isInteger(at) || at < from || at > stored.length)
      throw new Error(`tool_call.arguments_refs: offset ${String(at)} is outside the arguments`);
    if (typeof value !== 'string')
      throw new Error(`tool_call.arguments_refs: action.${String(field)} is not a string`);
    args += stored.slice(from, at) + literalOf(value, ref.ascii === true);
    from = at;
  }
  call.arguments = args + stored.slice(from);
  delete call.arguments_refs;
}

const NON_ASCII = /[^\u0000-\u007f]/;

function literalOf(value: string, ascii: boolean): string {
  // JSON.stringify, not the log's quoteJson: same bytes, and far faster on text full of escapes.
  const json = JSON.stringify(value);
  if (!ascii) return json;
  return json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
