// Checkpoint events name objects in a store on this machine: an OpenHands export leaves them out
// (OpenHands has no such state, and they would restore nothing elsewhere). The event after one is
// re-parented to the one before, so the exported events still form one chain.
import type { Event } from '../events';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY, CHECKPOINT_UNAVAILABLE_KEY } from './types';

const WORKSPACE_KEYS = new Set([CHECKPOINT_KEY, CHECKPOINT_AFTER_KEY, CHECKPOINT_UNAVAILABLE_KEY]);

export function isWorkspaceOnlyEvent(e: Event): boolean {
  return e.kind === 'ConversationStateUpdateEvent' && WORKSPACE_KEYS.has(e.key);
}

export class WorkspaceOnlyEvents {
  /** Id of each left-out event → the parent its children get instead. */
  private readonly parents = new Map<string, string | null | undefined>();

  /** The event as exported, or undefined when it is left out. */
  keep<E extends Event>(e: E): E | undefined {
    if (isWorkspaceOnlyEvent(e)) {
      this.parents.set(e.id, this.parentOf(e.parent_id));
      return undefined;
    }
    if (e.parent_id && this.parents.has(e.parent_id)) {
      return { ...e, parent_id: this.parentOf(e.parent_id) ?? null } as E;
    }
    return e;
  }

  private parentOf(id: string | null | undefined): string | null | undefined {
    return id && this.parents.has(id) ? this.parents.get(id) : id;
  }
}
