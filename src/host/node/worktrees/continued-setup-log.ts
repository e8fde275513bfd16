// Where `logbook fork` records a continued task's setup step: straight into the new task's log,
// after the events the fork copied, before any agent runs there (no conversation is opened: the
// fork needs no model). Each event goes after the one appended before it, as a conversation would
// append it, through the log's own store (signed when the fork is).
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { HostCommand, HostCommandResult } from '../../../core/agent/host-command';
import { runHostCommand } from '../../../core/agent/host-command';
import { createEvent, type CreateFields, type Event, type EventKind } from '../../../core/events';
import type { EventStore } from '../../../core/log/event-store';

export interface HostCommandLog {
  runHostCommand(cmd: HostCommand, run: () => Promise<HostCommandResult>): Promise<HostCommandResult>;
}

/** Appends host commands to `store`, whose newest event is `head`. */
export function hostCommandLog(store: EventStore<StoredConversationEvent>, head: string): HostCommandLog {
  let parent = head;
  const log = {
    async append<K extends EventKind>(kind: K, fields: CreateFields<K>, durable = false) {
      const event = createEvent(kind, {
        ...(fields as object),
        parent_id: parent,
      } as unknown as CreateFields<K>);
      await store.append(event as Event as StoredConversationEvent, { durable });
      parent = event.id;
      return event;
    },
  };
  return { runHostCommand: (cmd, run) => runHostCommand(log, cmd, run) };
}
