/** State of a whole log: the reduction of the branch of its head (see branch.ts). */
import type { Event } from '../events';
import { branchOf, LogTree } from './branch';
import { type ConversationState, initialState } from './conversation-state';
import { reduce } from './reducer';

export interface DeriveOptions {
  /** Conversation id put in the state. */
  id?: string | null;
  /** Event whose branch is derived; default the last event of the log. */
  headId?: string;
}

export function deriveState(events: readonly Event[], opts: DeriveOptions = {}): ConversationState {
  return branchOf(events, opts.headId).reduce(reduce, initialState(opts.id ?? null));
}

/**
 * Holds the state of a growing log (the branch of its last event) and applies appended events one
 * by one: one `reduce` per event that extends the current head. An event that forks (its parent is
 * not the previous event) re-derives its branch from the root, so the result always equals
 * `deriveState(allEvents)`. Keeps the events for that; StateTimeline bounds the replay instead.
 */
export class IncrementalState {
  private readonly tree = new LogTree();
  private readonly events: Event[] = [];
  private current: ConversationState;

  constructor(
    private readonly id: string | null = null,
    events: Iterable<Event> = [],
  ) {
    this.current = initialState(id);
    for (const e of events) this.apply(e);
  }

  get state(): ConversationState {
    return this.current;
  }

  get length(): number {
    return this.events.length;
  }

  apply(event: Event): ConversationState {
    const i = this.tree.add(event);
    this.events.push(event);
    const parent = this.tree.parentOf(i);
    if (parent === i - 1) {
      this.current = reduce(this.current, event);
    } else {
      const branch = this.tree.pathTo(i).map((j) => this.events[j]!);
      this.current = branch.reduce(reduce, initialState(this.id));
    }
    return this.current;
  }
}
