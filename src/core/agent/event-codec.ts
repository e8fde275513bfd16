// How events are stored: the OpenHands JSON of each event, one per record. A record that is not a
// valid event decodes to a CorruptRecord slot (shown to the user as an error), never a crash.
// The conversation's own log stores a long tool argument once (see shared-arguments); a log meant
// for OpenHands (an export) stores every event exactly as OpenHands writes it. A codec checks tool
// payloads only against the schemas it is given (a conversation's own tools); the plain codecs, for
// readers that know no tool set, check the events' shape.
import {
  type PayloadSchemas,
  parseEvent,
  parseOwnedEvent,
  restoreLongArguments,
  serializeEvent,
  shareLongArguments,
  type Event,
} from '../events';
import { corruptRecord, type EventCodec, type StoredEvent } from '../log/event-store';

export type StoredConversationEvent = Event & StoredEvent;

function decode(
  line: string,
  index: number,
  unfrozen = false,
  payloads?: PayloadSchemas,
): StoredConversationEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
    restoreLongArguments(value);
  } catch (err) {
    // parseEvent words the JSON error; a note that does not fit is named as it is.
    const r = value === undefined ? parseEvent(line, { index }) : undefined;
    const reason = r && !r.ok ? r.error.message : (err as Error).message;
    return corruptRecord(index, reason) as unknown as StoredConversationEvent;
  }
  const r = parseOwnedEvent(value, { index, unfrozen, ...(payloads ? { payloads } : {}) });
  if (r.ok) return r.event as StoredConversationEvent;
  return corruptRecord(index, r.error.message) as unknown as StoredConversationEvent;
}

export const conversationEventCodec: EventCodec<StoredConversationEvent> = {
  oneLine: true,
  encode: (e) => serializeEvent(shareLongArguments(e) as Event),
  decode,
};

/** The conversation codec that also checks each payload against these tools' schemas. */
export function conversationEventCodecWith(payloads: PayloadSchemas): EventCodec<StoredConversationEvent> {
  return { ...conversationEventCodec, decode: (line, index) => decode(line, index, false, payloads) };
}

/** Every event whole, as the OpenHands SDK writes it (reads both forms). */
export const openHandsEventCodec: EventCodec<StoredConversationEvent> = {
  oneLine: true,
  encode: (e) => serializeEvent(e),
  decode,
};

/**
 * For copying an OpenHands conversation into a new log (an import), where each event is decoded,
 * stored and dropped: events are not frozen, and they are encoded by the engine's JSON.stringify,
 * which makes the same text (stringifyJson is only faster on long strings) and is faster on the
 * short events a conversation mostly holds. A long argument is still stored once.
 */
export const importEventCodec: EventCodec<StoredConversationEvent> = {
  oneLine: true,
  encode: (e) => {
    const stored = shareLongArguments(e);
    return stored === e ? JSON.stringify(e) : serializeEvent(stored as Event);
  },
  decode: (line, index) => decode(line, index, true),
};
