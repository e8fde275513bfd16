// How events are stored: the OpenHands JSON of each event, one per record. A record that is not a
// valid event decodes to a CorruptRecord slot (shown to the user as an error), never a crash.
import { parseEvent, serializeEvent, type Event } from '../events';
import { corruptRecord, type EventCodec, type StoredEvent } from '../log/event-store';

export type StoredConversationEvent = Event & StoredEvent;

export const conversationEventCodec: EventCodec<StoredConversationEvent> = {
  oneLine: true,
  encode: (e) => serializeEvent(e),
  decode: (line, index) => {
    const r = parseEvent(line, { index });
    if (r.ok) return r.event as StoredConversationEvent;
    return corruptRecord(index, r.error.message) as unknown as StoredConversationEvent;
  },
};
