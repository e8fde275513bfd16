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
import type { ConversationLog } from './conversation-journal';

export class ActionCheckpoints {
  /**
   * Recording the workspace failed while this object was open: it does not try again before every
   * action (a workspace over the limits would be scanned each time). Whether the user was told is
   * the state's (`checkpointsUnavailable`, from the logged notice), so a reopened conversation tries
   * once more (the cause may be gone) but never repeats the notice.
   */
  private failed = false;

  constructor(
    private readonly conversationId: string,
    private readonly log: ConversationLog,
    private readonly port: CheckpointPort | undefined,
    private readonly tools: () => ToolSpec[],
  ) {}

  /** The files as they are before `action`, recorded and bound to it; false when none was recorded. */
  async before(action: ActionEvent): Promise<boolean> {
    if (!this.port || this.failed) return false;
    const noticeGiven = this.log.state.checkpointsUnavailable;
    return this.record(
      await checkpointBefore(this.port, this.conversationId, action, this.tools(), noticeGiven),
    );
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
