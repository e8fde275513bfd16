// The runtime's side of checkpoints: which actions get one, and the events that bind the files
// before and after it to the action. A workspace that cannot be checkpointed gets one notice (the
// state knows from the log that it was given) and the agent goes on without.
import type { ActionEvent } from '../events';
import type { ToolSpec } from '../tools';
import {
  CHECKPOINT_AFTER_KEY,
  CHECKPOINT_KEY,
  CHECKPOINT_UNAVAILABLE_KEY,
  CheckpointUnavailableError,
  checkpointEventValue,
  type CheckpointPort,
  type CheckpointReason,
} from './types';

export {
  CHECKPOINT_AFTER_KEY,
  CHECKPOINT_KEY,
  CHECKPOINT_UNAVAILABLE_KEY,
  type CheckpointPort,
} from './types';

/** Can running this action change files? Every tool not marked read-only can, unless it says otherwise. */
export function changesFiles(action: ActionEvent, tools: readonly ToolSpec[]): boolean {
  const spec = tools.find((t) => t.name === action.tool_name);
  if (!spec) return false; // it will not run: validation answers it with an error
  if (spec.readOnly) return false;
  const payload = (action.action ?? {}) as Readonly<Record<string, unknown>>;
  return !spec.changesNoFiles?.(payload);
}

export interface CheckpointUnavailableValue {
  message: string;
}

/** What trying to record gave: the state update to append (if any), and whether it failed. */
export interface CheckpointOutcome {
  update: { key: string; value: unknown } | null;
  /** A checkpoint is in the update (false: none wanted, checkpoints off, or it failed). */
  recorded: boolean;
  /** The workspace could not be recorded: the update is the notice, unless it was given already. */
  failed: boolean;
}

const NOTHING: CheckpointOutcome = { update: null, recorded: false, failed: false };

/**
 * Records a checkpoint before `action` when it can change files. `noticeGiven`: the conversation's
 * state holds a `checkpoint_unavailable` notice already, so a failure adds none.
 */
export async function checkpointBefore(
  port: CheckpointPort,
  conversationId: string,
  action: ActionEvent,
  tools: readonly ToolSpec[],
  noticeGiven: boolean,
): Promise<CheckpointOutcome> {
  if (!changesFiles(action, tools)) return NOTHING;
  return recordBound(port, conversationId, action, 'action', noticeGiven);
}

/**
 * Records the files right after `action` finished (run only when a checkpoint was taken before
 * it): the differences between this state and the next checkpoint are exactly what someone else
 * than the agent changed in between, which a restore names before it overwrites them.
 */
export function checkpointAfter(
  port: CheckpointPort,
  conversationId: string,
  action: ActionEvent,
  noticeGiven: boolean,
): Promise<CheckpointOutcome> {
  return recordBound(port, conversationId, action, 'after', noticeGiven);
}

async function recordBound(
  port: CheckpointPort,
  conversationId: string,
  action: ActionEvent,
  reason: Extract<CheckpointReason, 'action' | 'after'>,
  noticeGiven: boolean,
): Promise<CheckpointOutcome> {
  try {
    const rec = await port.record({ conversationId, reason, actionId: action.id });
    if (!rec) return NOTHING; // checkpoints are turned off
    return {
      update: {
        key: reason === 'after' ? CHECKPOINT_AFTER_KEY : CHECKPOINT_KEY,
        value: checkpointEventValue(rec, { reason, actionId: action.id }),
      },
      recorded: true,
      failed: false,
    };
  } catch (err) {
    if (noticeGiven) return { update: null, recorded: false, failed: true };
    const why =
      err instanceof CheckpointUnavailableError
        ? err.message
        : `Recording the workspace failed: ${err instanceof Error ? err.message : String(err)}`;
    const value: CheckpointUnavailableValue = {
      message: `${why} The agent goes on without checkpoints: its changes cannot be restored from this conversation.`,
    };
    return { update: { key: CHECKPOINT_UNAVAILABLE_KEY, value }, recorded: false, failed: true };
  }
}
