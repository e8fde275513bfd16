// Reading checkpoints back from a conversation's events: the list the CLI and the chat show, and
// which checkpoint "restore to here" means for any event.
import type { Event } from '../events';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY, type CheckpointEventValue } from './types';

export interface CheckpointEntry {
  /** Index of the checkpoint event in the log. */
  index: number;
  /** The checkpoint event's id. */
  eventId: string;
  timestamp: string;
  value: CheckpointEventValue;
}

function isCheckpointValue(v: unknown): v is CheckpointEventValue {
  const o = v as Partial<CheckpointEventValue> | null;
  return (
    !!o && typeof o === 'object' && typeof o.checkpoint === 'string' && typeof o.files_changed === 'number'
  );
}

/** The checkpoint events of `events` (in log order, with their index in it). */
export function checkpointEntries(events: readonly Event[], indices?: readonly number[]): CheckpointEntry[] {
  const out: CheckpointEntry[] = [];
  events.forEach((e, i) => {
    if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== CHECKPOINT_KEY) return;
    if (!isCheckpointValue(e.value)) return;
    out.push({
      index: indices?.[i] ?? i,
      eventId: e.id,
      timestamp: e.timestamp,
      value: e.value as CheckpointEventValue,
    });
  });
  return out;
}

/**
 * The checkpoint that holds the files as they were at `eventId`: the event's own checkpoint, the one
 * bound to it (an action), or else the first recorded after it (nothing changed the files between).
 * Undefined when no checkpoint follows: the files have not changed through the agent since.
 */
export function checkpointAt(events: readonly Event[], eventId: string): CheckpointEntry | undefined | null {
  const at = events.findIndex((e) => e.id === eventId);
  if (at < 0) return null;
  const entries = checkpointEntries(events);
  const bound = entries.find((c) => c.value.action_id === eventId);
  if (bound) return bound;
  return entries.find((c) => c.index >= at);
}

/** The checkpoint id of the newest after-state (`checkpoint_after`) in `events`, if any. */
export function lastAfterState(events: readonly Event[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (
      e.kind === 'ConversationStateUpdateEvent' &&
      e.key === CHECKPOINT_AFTER_KEY &&
      isCheckpointValue(e.value)
    )
      return e.value.checkpoint;
  }
  return undefined;
}

export type EventRef =
  { eventId: string } | { problem: 'unknown' } | { problem: 'ambiguous'; candidates: string[] };

/**
 * The event `ref` names: an event id, a checkpoint id (the first event that recorded it), or a
 * unique prefix of either, as `logbook checkpoints` and the event lines print them (a checkpoint id
 * cut to 12 characters). A prefix that fits several events is ambiguous, never a guess.
 */
export function resolveEventRef(events: readonly Event[], ref: string): EventRef {
  const wanted = ref.trim().toLowerCase();
  if (wanted === '') return { problem: 'unknown' };
  const exact = events.find((e) => e.id.toLowerCase() === wanted);
  if (exact) return { eventId: exact.id };
  const found = new Map<string, string>();
  for (const e of events) if (e.id.toLowerCase().startsWith(wanted)) found.set(e.id, `event ${e.id}`);
  const seen = new Set<string>();
  for (const c of checkpointEntries(events)) {
    const id = c.value.checkpoint.toLowerCase();
    if (!id.startsWith(wanted) || seen.has(id)) continue;
    seen.add(id);
    if (!found.has(c.eventId)) found.set(c.eventId, `checkpoint ${id.slice(0, 12)} (event ${c.eventId})`);
  }
  if (found.size === 1) return { eventId: [...found.keys()][0]! };
  if (found.size === 0) return { problem: 'unknown' };
  return { problem: 'ambiguous', candidates: [...found.values()] };
}

/**
 * Which recorded files stand for the workspace at `eventId`: the checkpoint `checkpointAt` finds,
 * else (the agent changed no files after it) the after-state of its last action, else none (the
 * files now). `logbook diff` and the chat's timeline both read points this way.
 */
export type FilesAtPoint =
  | { kind: 'checkpoint'; checkpoint: string; entry: CheckpointEntry }
  | { kind: 'after-last'; checkpoint: string }
  | { kind: 'now' };

export function filesAtPoint(events: readonly Event[], eventId: string): FilesAtPoint {
  const entry = checkpointAt(events, eventId);
  if (entry) return { kind: 'checkpoint', checkpoint: entry.value.checkpoint, entry };
  const after = lastAfterState(events);
  return after ? { kind: 'after-last', checkpoint: after } : { kind: 'now' };
}
