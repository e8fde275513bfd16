// The durable event log: one EventStore interface, three backends.
//   SegmentEventStore  default: checksummed append-only segments, group commit, O(tail) open
//   OpenHandsDirStore  the OpenHands SDK layout (base_state.json + events/event-NNNNN-<id>.json)
//   MemoryEventStore   in memory, for tests and throwaway conversations
import fs from 'node:fs';
import path from 'node:path';
import {
  type EventCodec,
  type EventStore,
  type StoredEvent,
  EventStoreError,
  isCorruptRecord,
} from './event-store';
import { OpenHandsDirStore } from './openhands-dir-store';
import { SegmentEventStore } from './segment-store';

export * from './event-store';
export { MemoryEventStore, type MemoryStoreOptions } from './memory-store';
export {
  SegmentEventStore,
  type SegmentStoreOptions,
  type OpenReport,
  type SegmentIo,
} from './segment-store';
export {
  OpenHandsDirStore,
  type OpenHandsStoreOptions,
  type OpenHandsOpenReport,
  eventFileName,
} from './openhands-dir-store';
export {
  acquireLock,
  hasLiveWriter,
  liveWriter,
  describeLock,
  isProcessAlive,
  type LockInfo,
  type LockResult,
  type HeldLock,
} from './lock';
export { crc32 } from './record-format';
export {
  type AcceptedLoss,
  type LostEvents,
  type LostRange,
  describeLostEvents,
  readAcceptedLosses,
} from './lost-events';

export type Backend = 'segments' | 'openhands';

/** 'openhands' for a directory that holds the SDK layout and no segment log, else 'segments'. */
export function detectBackend(dir: string): Backend {
  const has = (p: string): boolean => fs.existsSync(path.join(dir, p));
  return !has('segments') && (has('events') || has('base_state.json')) ? 'openhands' : 'segments';
}

export async function openEventStore<E extends StoredEvent = StoredEvent>(
  dir: string,
  opts: { backend?: Backend; codec?: EventCodec<E>; readOnly?: boolean } = {},
): Promise<EventStore<E>> {
  const backend = opts.backend ?? detectBackend(dir);
  const o = { ...(opts.codec ? { codec: opts.codec } : {}), ...(opts.readOnly ? { readOnly: true } : {}) };
  return backend === 'openhands' ? OpenHandsDirStore.open<E>(dir, o) : SegmentEventStore.open<E>(dir, o);
}

/** Events copyEvents reads at once: a bound on what it holds, whatever the log's length. */
const COPY_BATCH = 256;

/** Copies every record of `from` into `to` (import/export between backends). Corrupt slots stop it. */
export async function copyEvents<E extends StoredEvent>(
  from: EventStore<E>,
  to: EventStore<E>,
): Promise<number> {
  let n = 0;
  // A slice at a time: an iterator's step per event costs as much as a small event's append.
  for (let at = 0; at < from.length; at += COPY_BATCH) {
    for (const e of await from.slice(at, at + COPY_BATCH)) {
      if (isCorruptRecord(e)) {
        throw new EventStoreError('CORRUPT', `record ${n} is unreadable (${e.reason}); fix or skip it first`);
      }
      await to.append(e as E);
      n++;
    }
  }
  await to.flush();
  return n;
}
