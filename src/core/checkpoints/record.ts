// The runtime's side of checkpoints: which actions get one, and the event that binds it to the
// action. A workspace that cannot be checkpointed gets one notice and the agent goes on without.
import type { ActionEvent } from '../events';
import type { ToolSpec } from '../tools';
import {
  CHECKPOINT_KEY,
  CHECKPOINT_UNAVAILABLE_KEY,
  CheckpointUnavailableError,
  checkpointEventValue,
  type CheckpointPort,
} from './types';

export { CHECKPOINT_KEY, CHECKPOINT_UNAVAILABLE_KEY, type CheckpointPort } from './types';

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

/**
 * Records a checkpoint before `action` when it can change files; returns the state update to
 * append (the checkpoint, or the notice that there is none), or null for nothing to append.
 */
export async function checkpointBefore(
  port: CheckpointPort,
  conversationId: string,
  action: ActionEvent,
  tools: readonly ToolSpec[],
  noticeGiven: boolean,
): Promise<{ key: string; value: unknown } | null> {
  if (!changesFiles(action, tools)) return null;
  try {
    const rec = await port.record({ conversationId, reason: 'action', actionId: action.id });
    if (!rec) return null; // checkpoints are turned off
    return {
      key: CHECKPOINT_KEY,
      value: checkpointEventValue(rec, { reason: 'action', actionId: action.id }),
    };
  } catch (err) {
    if (noticeGiven) return null;
    const why =
      err instanceof CheckpointUnavailableError
        ? err.message
        : `Recording the workspace failed: ${err instanceof Error ? err.message : String(err)}`;
    const value: CheckpointUnavailableValue = {
      message: `${why} The agent goes on without checkpoints: its changes cannot be restored from this conversation.`,
    };
    return { key: CHECKPOINT_UNAVAILABLE_KEY, value };
  }
}
