// A conversation's first checkpoint is compared with nothing, so every file it holds counts as
// "changed": it is the state the agent started from, and is said so instead.
import type { CheckpointEventValue } from './types';

/** Whether a checkpoint taken before an action is the conversation's first (every file new to it). */
export function isStartingState(v: Partial<CheckpointEventValue>): boolean {
  return (
    v.reason === 'action' &&
    typeof v.files === 'number' &&
    v.files_changed === v.files &&
    (v.changes ?? []).every((c) => c.status === 'A')
  );
}
