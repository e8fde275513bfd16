// Which recorded files stand for the workspace at one event, read forward from that event instead
// of from the first one: `filesAtPoint` (core/checkpoints/timeline.ts) over the whole log gives the
// same answer. The files at an event are its action's own checkpoint, else the first checkpoint at or
// after it, else the after-state of the log's last action, else the files now. `logbook diff` and
// the chat's timeline (on a long log) read points this way.
import type { FilesAtPoint } from '../../../core/checkpoints/timeline';
import {
  CHECKPOINT_AFTER_KEY,
  CHECKPOINT_KEY,
  type CheckpointEventValue,
} from '../../../core/checkpoints/types';
import type { Event } from '../../../core/events';
import { type EventStore, isCorruptRecord, type StoredEvent } from '../../../core/log';

/** What the reads need of a log: its length and its records by range. */
type Store = Pick<EventStore<StoredEvent>, 'length' | 'get' | 'slice'>;

/** Events read per `slice` call. */
const CHUNK = 256;

/** The checkpoint value an event records under `key`, if it is such an event. */
function checkpointValue(e: Event, key: string): CheckpointEventValue | undefined {
  if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== key) return undefined;
  const v = e.value as Partial<CheckpointEventValue> | null;
  return v && typeof v.checkpoint === 'string' && typeof v.files_changed === 'number'
    ? (v as CheckpointEventValue)
    : undefined;
}

/** Readable events from `from` on, in order, `CHUNK` at a time; `step` returns true to stop. */
async function forward(
  store: Store,
  from: number,
  step: (e: Event, index: number) => boolean,
): Promise<void> {
  for (let i = from; i < store.length; i += CHUNK) {
    const slots = await store.slice(i, i + CHUNK);
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      if (!isCorruptRecord(slot) && step(slot as unknown as Event, i + k)) return;
    }
  }
}

/** Readable events from `before - 1` down to 0, `CHUNK` at a time; `step` returns true to stop. */
async function backward(
  store: Store,
  before: number,
  step: (e: Event, index: number) => boolean,
): Promise<void> {
  for (let end = before; end > 0; end -= CHUNK) {
    const from = Math.max(0, end - CHUNK);
    const slots = await store.slice(from, end);
    for (let k = slots.length - 1; k >= 0; k--) {
      const slot = slots[k]!;
      if (!isCorruptRecord(slot) && step(slot as unknown as Event, from + k)) return;
    }
  }
}

/** The files at the event at `index` (whose id is `eventId`), as filesAtPoint gives them. */
export async function filesAtIndex(store: Store, index: number, eventId: string): Promise<FilesAtPoint> {
  const at = await store.get(index);
  const isAction = !isCorruptRecord(at) && (at as StoredEvent).kind === 'ActionEvent';
  let first: { index: number; id: string; timestamp: string; value: CheckpointEventValue } | undefined;
  let bound: typeof first;
  await forward(store, index, (e, i) => {
    const v = checkpointValue(e, CHECKPOINT_KEY);
    if (v) {
      const entry = { index: i, id: e.id, timestamp: e.timestamp, value: v };
      if (v.action_id === eventId) bound = entry;
      first ??= entry;
    }
    // An action's own checkpoint is taken before it runs: once it is answered, none comes.
    const answered =
      (e.kind === 'ObservationEvent' || e.kind === 'UserRejectObservation') && e.action_id === eventId;
    return bound !== undefined || (first !== undefined && (!isAction || answered));
  });
  const entry = bound ?? first;
  if (entry)
    return {
      kind: 'checkpoint',
      checkpoint: entry.value.checkpoint,
      entry: { index: entry.index, eventId: entry.id, timestamp: entry.timestamp, value: entry.value },
    };
  let after: string | undefined;
  await backward(store, store.length, (e) => {
    after = checkpointValue(e, CHECKPOINT_AFTER_KEY)?.checkpoint;
    return after !== undefined;
  });
  return after ? { kind: 'after-last', checkpoint: after } : { kind: 'now' };
}

/** The log's first checkpoint (before an action or a restore), read forward from the start. */
export async function firstCheckpoint(store: Store): Promise<string | undefined> {
  let found: string | undefined;
  await forward(store, 0, (e) => (found = checkpointValue(e, CHECKPOINT_KEY)?.checkpoint) !== undefined);
  return found;
}

/** Whether the log recorded any checkpoint before an action (read backward from `before`). */
export async function hasCheckpointBefore(store: Store, before: number): Promise<boolean> {
  let found = false;
  await backward(store, before, (e) => (found = checkpointValue(e, CHECKPOINT_KEY) !== undefined));
  return found;
}
