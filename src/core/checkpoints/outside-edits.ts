// Which recorded states to compare to know what someone other than the agent changed after a
// checkpoint: the log holds the files before each file-changing action (`checkpoint`) and as it
// left them (`checkpoint_after`). What changed between an action's after-state and the next
// checkpoint, or between the last after-state and the files now, was changed outside the agent
// (the user, their editor, another program, another conversation).
import type { Event } from '../events';
import type { CheckpointEntry } from './timeline';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY, type CheckpointEventValue } from './types';

/** Two states whose differences were made outside the agent; `to: null` means the files now. */
export interface OutsidePair {
  from: string;
  to: string | null;
}

export interface OutsidePairs {
  pairs: OutsidePair[];
  /**
   * Every stretch after the checkpoint is covered. False when a state the agent left is not in the
   * log: a conversation recorded before after-states existed, an action still running or cut off
   * by a crash, a restore whose target is not in this log. The caller then also guesses (by time).
   */
  complete: boolean;
}

function checkpointOf(e: Event, key: string): CheckpointEventValue | undefined {
  if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== key) return undefined;
  const v = e.value as Partial<CheckpointEventValue> | null;
  return v && typeof v === 'object' && typeof v.checkpoint === 'string'
    ? (v as CheckpointEventValue)
    : undefined;
}

/**
 * The pairs to compare for a restore to `target` (a checkpoint event of `events`). From the
 * target on, each checkpoint is followed by what it knowingly became: its action's after-state, or
 * for a restore the checkpoint it restored; that state is paired with the next checkpoint, the last
 * one with the files now.
 */
export function outsideEditPairs(events: readonly Event[], target: CheckpointEntry): OutsidePairs {
  const start = events.findIndex((e) => e.id === target.eventId);
  if (start < 0) return { pairs: [], complete: false };
  const afterOf = new Map<string, string>();
  const checkpointById = new Map<string, string>();
  for (const e of events) {
    const after = checkpointOf(e, CHECKPOINT_AFTER_KEY);
    if (after?.action_id) afterOf.set(after.action_id, after.checkpoint);
    const cp = checkpointOf(e, CHECKPOINT_KEY);
    if (cp) checkpointById.set(e.id, cp.checkpoint);
  }
  const pairs: OutsidePair[] = [];
  let complete = true;
  /** The state the agent (or a restore) left, not yet compared with what followed. */
  let left: string | undefined;
  let previous: string | undefined;
  for (const e of events.slice(start)) {
    const cp = checkpointOf(e, CHECKPOINT_KEY);
    if (!cp) continue;
    // A restore leaves the workspace's recorded files as the checkpoint it restored held.
    const restored = cp.reason === 'restore' ? checkpointById.get(cp.restored_to ?? '') : undefined;
    if (left !== undefined) pairs.push({ from: left, to: cp.checkpoint });
    else if (e.id !== target.eventId && !(restored !== undefined && restored === previous)) {
      // What led to this checkpoint is unknown; unless it is a restore to the checkpoint just
      // before (a fork made at a checkpoint, then restored to it): what happened in between is gone.
      complete = false;
    }
    left =
      cp.reason === 'restore' ? restored : cp.action_id !== undefined ? afterOf.get(cp.action_id) : undefined;
    previous = cp.checkpoint;
  }
  if (left !== undefined) pairs.push({ from: left, to: null });
  else complete = false;
  return { pairs, complete };
}
