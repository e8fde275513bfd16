// The worktree tasks' conversations a window knows (shown, listed in the Conversations view, or
// found again after a reload), by conversation id: where each one's log and worktree are.
import { findTaskConversation } from './task-conversation-items';
import type { TaskConversationPlace } from './task-conversation-place';

/** The task conversations this window knows: shown, listed, or found again after a reload. */
export class TaskPlaces extends Map<string, TaskConversationPlace> {
  /** A task's conversation listed or shown: its session opens on the task's log, in its worktree. */
  know(id: string, place: TaskConversationPlace): void {
    if (!this.has(id)) this.set(id, place);
  }

  /** Makes task `name`'s conversation `id` known, read from the task store, if that task has it. */
  async find(id: string, name: string, log: { warn(message: string): void }): Promise<void> {
    const place = await findTaskConversation(name, id).catch((err: unknown) => {
      log.warn(`Could not find task ${name}'s conversation: ${String(err)}`);
      return undefined;
    });
    if (place) this.know(id, place);
  }
}
