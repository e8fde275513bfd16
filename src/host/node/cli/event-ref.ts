// The event a command's ID argument names (`restore --at`, `show --at`, `diff --from/--to`):
//
// - `#N`: the event at index N of the log (the index `show --at`, `diff` and `checkpoints` print);
// - a bare number N: the same index when the log has an event N. Digits are also how an id can
//   start, so the index wins and the command says it read an index (`#N` says it without a note);
//   a number past the end of the log is taken as the start of an id;
// - an event id, a checkpoint id (before an action, or after it: `[checkpoint]` lines print both),
//   or a unique prefix of either.
//
// - `start`, the first event (the files as the agent found them), and `now` (or `end`), the last.
//
// Unknown and ambiguous ids fail with a message that says what they fit, never a guess.
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY } from '../../../core/checkpoints/types';
import type { Event } from '../../../core/events';

export interface EventRefFound {
  /** The event's index in the log (unreadable records count, as every index the CLI prints). */
  index: number;
  eventId: string;
  /** How the argument was read. */
  readAs: 'index' | 'id' | 'checkpoint';
  /** The checkpoint the argument named (readAs 'checkpoint'). */
  checkpoint?: string;
}

/** `#N` or bare digits as an index: N, or null when `ref` is not written as one. */
export function indexRef(ref: string): { index: number; marked: boolean } | null {
  const m = /^\s*(#?)(\d+)\s*$/.exec(ref);
  if (!m) return null;
  const index = Number(m[2]);
  return Number.isSafeInteger(index) ? { index, marked: m[1] === '#' } : null;
}

/** `start` and `now`/`end` as the index they name in a log of `length` events; else `ref` as it is. */
export function namedPoint(ref: string, length: number): string {
  const name = ref.trim().toLowerCase();
  if (name === 'start') return '#0';
  if ((name === 'now' || name === 'end') && length > 0) return `#${length - 1}`;
  return ref;
}

/** What a command prints when it read a bare number as an index (a note: it may have meant an id). */
export function indexNote(ref: string, found: EventRefFound): string | undefined {
  const i = indexRef(ref);
  if (found.readAs !== 'index' || !i || i.marked) return undefined;
  return `"${ref.trim()}" read as event index ${found.index} (#${found.index}); to name an id that starts with these digits, give more of it.`;
}

export function outsideLog(index: number, length: number): Error {
  const held = length === 0 ? 'it holds no events' : `its events are #0 to #${length - 1}`;
  return new Error(`No event #${index} in this conversation: ${held}.`);
}

/**
 * Resolves `ref` among `events`, the readable events of a log of `length` records; `indices[k]` is
 * the log index of `events[k]` (default: k, a log with no unreadable record).
 */
export function resolveRef(
  events: readonly Event[],
  ref: string,
  dirArg: string,
  opts: { indices?: readonly number[]; length?: number } = {},
): EventRefFound {
  const indexOf = (k: number): number => opts.indices?.[k] ?? k;
  const length = opts.length ?? (events.length === 0 ? 0 : indexOf(events.length - 1) + 1);
  ref = namedPoint(ref, length);
  const asIndex = indexRef(ref);
  if (asIndex && (asIndex.marked || asIndex.index < length)) {
    if (asIndex.index >= length) throw outsideLog(asIndex.index, length);
    const k = opts.indices ? opts.indices.indexOf(asIndex.index) : asIndex.index;
    if (k < 0) throw new Error(`Event #${asIndex.index} of this conversation is unreadable.`);
    return { index: asIndex.index, eventId: events[k]!.id, readAs: 'index' };
  }
  const wanted = ref.trim().toLowerCase();
  if (wanted === '') throw unknownRef(ref, dirArg);
  const exact = events.findIndex((e) => e.id.toLowerCase() === wanted);
  if (exact >= 0) return { index: indexOf(exact), eventId: events[exact]!.id, readAs: 'id' };

  // Every event or checkpoint the prefix fits, by event; the first event that recorded a checkpoint.
  const found = new Map<number, { label: string; ref: EventRefFound }>();
  const checkpoints = new Set<string>();
  events.forEach((e, k) => {
    const index = indexOf(k);
    if (e.id.toLowerCase().startsWith(wanted))
      found.set(k, { label: `event ${e.id}`, ref: { index, eventId: e.id, readAs: 'id' } });
    const checkpoint = checkpointOf(e)?.toLowerCase();
    if (!checkpoint?.startsWith(wanted) || checkpoints.has(checkpoint) || found.has(k)) return;
    checkpoints.add(checkpoint);
    found.set(k, {
      label: `checkpoint ${checkpoint.slice(0, 12)} (event ${e.id})`,
      ref: { index, eventId: e.id, readAs: 'checkpoint', checkpoint: checkpointOf(e)! },
    });
  });
  const all = [...found.values()];
  if (all.length === 1) return all[0]!.ref;
  if (all.length === 0) {
    if (asIndex) throw outsideLog(asIndex.index, length);
    throw unknownRef(ref, dirArg);
  }
  const shown = all
    .slice(0, 5)
    .map((f) => f.label)
    .join(', ');
  const more = all.length > 5 ? ` and ${all.length - 5} more` : '';
  throw new Error(
    `"${ref}" fits ${all.length} ids of this conversation: ${shown}${more}. Give more of the id.`,
  );
}

/** The id of the event `ref` names (see resolveRef). */
export function eventIdFor(events: readonly Event[], ref: string, dirArg: string): string {
  return resolveRef(events, ref, dirArg).eventId;
}

function unknownRef(ref: string, dirArg: string): Error {
  return new Error(
    `No event or checkpoint "${ref}" in this conversation (logbook checkpoints ${dirArg} lists them; #N names the event at index N).`,
  );
}

/** The checkpoint id a checkpoint event (before or after an action) records. */
function checkpointOf(e: Event): string | undefined {
  if (e.kind !== 'ConversationStateUpdateEvent') return undefined;
  if (e.key !== CHECKPOINT_KEY && e.key !== CHECKPOINT_AFTER_KEY) return undefined;
  const v = e.value as { checkpoint?: unknown; files_changed?: unknown } | null;
  return v && typeof v.checkpoint === 'string' && typeof v.files_changed === 'number'
    ? v.checkpoint
    : undefined;
}
