/**
 * Snapshots for a log that no running Conversation writes (an import): the state and the view's
 * bookkeeping follow the store's appends, and a snapshot (state and view checkpoint) is taken as
 * Conversation takes them, every SNAPSHOT_EVERY events and at the last one. The first open of such
 * a log, by `logbook show` or by VS Code, then reads the newest snapshot and its tail instead of
 * replaying everything.
 *
 * Only what a snapshot needs is kept: the state, and of the view the ids and positions of the
 * events it shows (a ViewLedger of ids), never the events themselves or their prompt messages, so
 * memory follows the view's length and not its bytes. The view's part of each snapshot is carried
 * from the one before (running-checkpoint.ts): a snapshot costs the events since, not the whole view. When the caller knows how long the log will
 * be, only the snapshots the store would keep of that length (snapshot-thinning.ts) are taken at
 * all, held until `finish` and written newest first, so none is written only to be thinned away.
 *
 * The state folds events linearly. At the first event whose parent is not the previous event (a
 * fork, which only the branch rules over the whole log resolve) it stops, after a snapshot of the
 * last linear event: later opens start from there and replay, which is slower but still exact.
 */
import { ViewLedger } from '../context';
import type { Event } from '../events';
import type { EventStore } from '../log/event-store';
import { snapshotsToKeep } from '../log/snapshot-thinning';
import { encodeSnapshot, initialState, reduce } from '../state';
import { SNAPSHOT_EVERY } from './conversation-memory';
import type { StoredConversationEvent } from './event-codec';
import { RunningCheckpoint } from './running-checkpoint';

type Store = EventStore<StoredConversationEvent>;

export interface SnapshotFollower {
  /** Stops following; writes the snapshots taken and one at the last event; resolves to their indices. */
  finish(): Promise<number[]>;
}

export interface FollowOptions {
  /** Events between two snapshots (default SNAPSHOT_EVERY). */
  every?: number;
  /**
   * How many events the log will hold: only the snapshots kept at that length are taken. Without
   * it every one is written as it is taken, as a running conversation does.
   */
  expectedLength?: number;
}

/** Follows every event appended to `store` from now on, which must start empty. */
export function followWithSnapshots(store: Store, id: string, opts: FollowOptions = {}): SnapshotFollower {
  if (store.length !== 0) throw new Error('snapshots are followed from the first event of a new log');
  const every = opts.every ?? SNAPSHOT_EVERY;
  const wanted = opts.expectedLength === undefined ? null : keptSnapshots(opts.expectedLength, every);
  let state = initialState(id);
  const view = new ViewLedger((e) => ({ id: e.id, kind: e.kind }));
  const resume = new RunningCheckpoint(view);
  const held = new Map<number, string>();
  const written: number[] = [];
  let last = -1;
  let linear = true;
  let writes = Promise.resolve();
  const write = (index: number, json: string): void => {
    written.push(index);
    writes = writes.then(() => store.writeSnapshot(index, json));
  };
  const snapshot = (index: number): void => {
    const json = encodeSnapshot(state, resume.resumeData());
    if (wanted) held.set(index, json);
    else write(index, json);
  };
  const taken = (index: number): boolean => (wanted ? held.has(index) : written.at(-1) === index);
  const unsubscribe = store.subscribe((stored, index) => {
    if (!linear) return;
    const event = stored as unknown as Event;
    const parent = event.parent_id;
    if (typeof parent === 'string' && parent !== '' && parent !== state.head) {
      linear = false;
      if (last >= 0 && !taken(last)) snapshot(last);
      return;
    }
    state = reduce(state, event);
    view.append(event, index);
    last = index;
    if (wanted ? wanted.has(index) : (index + 1) % every === 0) snapshot(index);
  });
  return {
    async finish() {
      unsubscribe();
      if (linear && last >= 0 && !taken(last)) snapshot(last);
      // Newest first: each one is then kept by the thinning the store does after every write.
      for (const index of [...held.keys()].sort((a, b) => b - a)) write(index, held.get(index)!);
      await writes;
      return written;
    },
  };
}

/** The indices, among a snapshot every `every` events and one at the last, that a log of `length` keeps. */
function keptSnapshots(length: number, every: number): Set<number> {
  const taken: number[] = [];
  for (let i = every - 1; i < length; i += every) taken.push(i);
  if (length > 0) taken.push(length - 1);
  return snapshotsToKeep(taken);
}
