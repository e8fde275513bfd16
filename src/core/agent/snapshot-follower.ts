/**
 * Snapshots for a log that no running Conversation writes (an import): the memory a Conversation
 * keeps follows the store's appends, and a snapshot (state and view checkpoint) is written every
 * SNAPSHOT_EVERY events and at the last one, exactly as Conversation writes them. The first open of
 * such a log, by `logbook show` or by VS Code, then reads the newest snapshot and its tail instead
 * of replaying everything.
 *
 * The memory folds events linearly. At the first event whose parent is not the previous event (a
 * fork, which only the branch rules over the whole log resolve) it stops: later opens start from
 * the last snapshot before it and replay, which is slower but still exact.
 */
import type { Event } from '../events';
import type { EventStore } from '../log/event-store';
import { encodeSnapshot, initialState } from '../state';
import { ConversationMemory, SNAPSHOT_EVERY } from './conversation-memory';
import type { StoredConversationEvent } from './event-codec';

type Store = EventStore<StoredConversationEvent>;

export interface SnapshotFollower {
  /** Stops following; writes a snapshot at the last event; resolves to the indices snapshotted. */
  finish(): Promise<number[]>;
}

/** Follows every event appended to `store` from now on, which must start empty. */
export function followWithSnapshots(store: Store, id: string, every = SNAPSHOT_EVERY): SnapshotFollower {
  if (store.length !== 0) throw new Error('snapshots are followed from the first event of a new log');
  const memory = ConversationMemory.empty(initialState(id));
  const written: number[] = [];
  let last = -1;
  let linear = true;
  let writes = Promise.resolve();
  const snapshot = (index: number): void => {
    const json = encodeSnapshot(memory.state, memory.resumeData());
    written.push(index);
    writes = writes.then(() => store.writeSnapshot(index, json));
  };
  const unsubscribe = store.subscribe((stored, index) => {
    if (!linear) return;
    const event = stored as unknown as Event;
    const parent = event.parent_id;
    if (typeof parent === 'string' && parent !== '' && parent !== memory.state.head) {
      linear = false;
      return;
    }
    memory.absorb(event, index);
    last = index;
    if ((index + 1) % every === 0) snapshot(index);
  });
  return {
    async finish() {
      unsubscribe();
      if (linear && last >= 0 && written.at(-1) !== last) snapshot(last);
      await writes;
      return written;
    },
  };
}
