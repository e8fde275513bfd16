// The errors the segment store raises for lost events and failed syncs.
import { EventStoreError } from './event-store';
import { type LostEvents, describeLostEvents } from './lost-events';

export function lostDataError(dir: string, lost: LostEvents): EventStoreError {
  return new EventStoreError(
    'LOST_DATA',
    `events of the log in ${dir} are lost: ${describeLostEvents(lost)}. It is not opened for ` +
      'writing, so nothing is written over them, until the loss is accepted.',
  );
}

export function ioError(err: unknown): EventStoreError {
  if (err instanceof EventStoreError) return err;
  return new EventStoreError('IO_FAILED', `the log could not be synced to disk: ${String(err)}`, {
    cause: err,
  });
}
