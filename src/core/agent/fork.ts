// Forking: a new log whose events are a conversation's branch up to a chosen event, copied
// verbatim (ids and parent links kept), then a record of where it came from, a title and a status that waits for the user.
// The source log is never changed.
import { createEvent, type Event } from '../events';
import { isCorruptRecord, type EventStore } from '../log/event-store';
import { branchOf, deriveState, EXECUTION_STATUS_KEY, TITLE_KEY } from '../state';
import type { StoredConversationEvent } from './event-codec';
import { WordedError } from '../text/l10n';

export const FORKED_FROM_KEY = 'forked_from';

/** A store that copies a source's events with their signatures (signing/SignedEventStore). */
interface CopyingStore {
  appendCopies(
    events: readonly StoredConversationEvent[],
    source: { dir: string; id: string; indices: readonly number[] },
  ): Promise<void>;
}

function copies(target: object): target is CopyingStore {
  return typeof (target as Partial<CopyingStore>).appendCopies === 'function';
}

/**
 * Writes a fork of a conversation's log into an empty store: its branch up to `fromEventId`, its
 * signatures carried over (the source is flushed first, so everything it copies is signed).
 */
export async function forkStore(
  store: EventStore<StoredConversationEvent>,
  id: string,
  fromEventId: string,
  target: EventStore<StoredConversationEvent>,
): Promise<void> {
  if (!store.readOnly) await store.flush();
  const events: Event[] = [];
  const indices: number[] = [];
  let index = 0;
  for await (const slot of store.iterate(0)) {
    if (!isCorruptRecord(slot)) {
      events.push(slot as Event);
      indices.push(index);
    }
    index++;
  }
  const dir = (store as { dir?: unknown }).dir;
  await forkInto({ id, events, indices, ...(typeof dir === 'string' ? { dir } : {}) }, fromEventId, target);
}

export async function forkInto(
  source: {
    id: string;
    events: readonly Event[];
    /** the log index of each of `events`, and the log's folder: a signed target keeps the source's signatures */
    indices?: readonly number[];
    dir?: string;
  },
  fromEventId: string,
  target: EventStore<StoredConversationEvent>,
): Promise<void> {
  if (!source.events.some((e) => e.id === fromEventId)) {
    throw new WordedError((l10n) =>
      l10n.t('Conversation {0} has no event {1} to continue from.', source.id, fromEventId),
    );
  }
  if (target.length > 0) throw new Error('A fork must be written into an empty log.');
  const branch = branchOf(source.events, fromEventId);
  if (copies(target) && source.dir !== undefined && source.indices !== undefined) {
    const at = new Map(source.events.map((e, i) => [e.id, source.indices![i]!]));
    await target.appendCopies(branch as StoredConversationEvent[], {
      dir: source.dir,
      id: source.id,
      indices: branch.map((e) => at.get(e.id)!),
    });
  } else {
    for (const e of branch) await target.append(e as StoredConversationEvent);
  }
  const forked = createEvent('ConversationStateUpdateEvent', {
    key: FORKED_FROM_KEY,
    value: { conversation_id: source.id, event_id: fromEventId },
    parent_id: branch.at(-1)!.id,
  });
  await target.append(forked as Event as StoredConversationEvent);
  // The fork is told apart from its source in the history by its title.
  let head: Event = forked;
  const atFork = deriveState(branch);
  const sourceTitle = atFork.title;
  if (sourceTitle) {
    const titled = createEvent('ConversationStateUpdateEvent', {
      key: TITLE_KEY,
      value: `${sourceTitle.replace(/ \(continued\)$/, '')} (continued)`,
      parent_id: forked.id,
    });
    await target.append(titled as Event as StoredConversationEvent);
    head = titled;
  }
  // Whatever the source was doing at that point, the fork waits for the user: to approve or
  // reject the actions it ends with (continuing from an action means deciding it again), or else
  // for a message.
  const waiting = createEvent('ConversationStateUpdateEvent', {
    key: EXECUTION_STATUS_KEY,
    value: atFork.pendingActions.length > 0 ? 'waiting_for_confirmation' : 'idle',
    parent_id: head.id,
  });
  await target.append(waiting as Event as StoredConversationEvent, { durable: true });
}
