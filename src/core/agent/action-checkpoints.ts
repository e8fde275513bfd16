// The workspace's files recorded around an action that can change them: before it (bound to it, so
// it can be undone) and after it (what changes later is not the agent's doing).
import type { ActionEvent } from '../events';
import type { ToolSpec } from '../tools';
import {
  checkpointAfter,
  checkpointBefore,
  type CheckpointOutcome,
  type CheckpointPort,
} from '../checkpoints/record';
import type { CheckpointCoverage } from '../checkpoints/types';
import type { ConversationLog } from './conversation-journal';

export class ActionCheckpoints {
  /**
   * Recording the workspace failed while this object was open: it does not try again before every
   * action (a workspace over the limits would be scanned each time). Whether the user was told is
   * the state's (`checkpointsUnavailable`, from the logged notice), so a reopened conversation tries
   * once more (the cause may be gone) but never repeats the notice.
   */
  private failed = false;
  /** The id of the checkpoint recorded last before an action. */
  private lastBefore: string | undefined;

  constructor(
    private readonly conversationId: string,
    private readonly log: ConversationLog,
    private readonly port: CheckpointPort | undefined,
    private readonly tools: () => ToolSpec[],
  ) {}

  /** The files as they are before `action`, recorded and bound to it; false when none was recorded. */
  async before(action: ActionEvent): Promise<boolean> {
    this.lastBefore = undefined;
    if (!this.port || this.failed) return false;
    const noticeGiven = this.log.state.checkpointsUnavailable;
    const outcome = await checkpointBefore(this.port, this.conversationId, action, this.tools(), noticeGiven);
    const value = outcome.recorded
      ? (outcome.update?.value as { checkpoint?: unknown } | undefined)
      : undefined;
    if (typeof value?.checkpoint === 'string') this.lastBefore = value.checkpoint;
    return this.record(outcome);
  }

  /** The checkpoint `before` recorded for the action it was last called with, if any. */
  lastCheckpoint(): string | undefined {
    return this.lastBefore;
  }

  /**
   * What a checkpoint taken now would hold: null when none can be taken (no store, it failed in
   * this conversation, or the store cannot tell), so nothing counts as undoable.
   */
  async coverage(): Promise<CheckpointCoverage | null> {
    if (!this.port?.coverage || this.failed) return null;
    try {
      return await this.port.coverage();
    } catch {
      return null;
    }
  }

  /** The files as the action left them. */
  async after(action: ActionEvent): Promise<void> {
    if (!this.port || this.failed) return;
    await this.record(
      await checkpointAfter(this.port, this.conversationId, action, this.log.state.checkpointsUnavailable),
    );
  }

  private async record(outcome: CheckpointOutcome): Promise<boolean> {
    if (outcome.failed) this.failed = true;
    if (outcome.update) await this.log.append('ConversationStateUpdateEvent', outcome.update);
    return outcome.recorded;
  }
}
