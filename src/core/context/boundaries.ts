/**
 * Where a list of view events may be cut so that each side converts to messages on its own:
 * no call before the cut still waits for its result, and the event after the cut cannot join the
 * tool-call batch before it. The ViewBuilder caches messages per cut-off segment; the condenser
 * only forgets whole segments, so it never separates an action from its observation.
 */
import type { LlmConvertibleEvent } from '../events';
import { type CallRole, rolesOf } from './call-pairing';

export class BoundaryTracker {
  /** Actions seen whose result has not come yet. */
  private readonly waiting = new Set<string>();
  /** eventsToMessages would still add the next call to the current batch. */
  private batchOpen = false;

  /** True when a cut right before an event with this role keeps both sides independent. */
  canCutBefore(role: CallRole): boolean {
    if (this.waiting.size > 0) return false;
    if (role.type === 'plain') return true;
    if (role.type === 'action' || role.type === 'failed_call') return !this.batchOpen;
    return false;
  }

  get pendingCalls(): number {
    return this.waiting.size;
  }

  add(e: LlmConvertibleEvent, role: CallRole): void {
    switch (role.type) {
      case 'action':
        this.waiting.add(e.id);
        this.batchOpen = true;
        break;
      case 'failed_call':
        this.batchOpen = true;
        break;
      case 'result':
        this.waiting.delete(role.actionId);
        if (!role.inBatch) this.batchOpen = false;
        break;
      default:
        this.batchOpen = false;
    }
  }
}

/** `safe[i]`: a cut before `events[i]` is safe (`i === events.length` is the end, safe when nothing waits). */
export function safeCuts(events: readonly LlmConvertibleEvent[]): boolean[] {
  const roles = rolesOf(events);
  const tracker = new BoundaryTracker();
  const safe: boolean[] = [];
  events.forEach((e, i) => {
    const role = roles[i]!;
    safe.push(i === 0 || tracker.canCutBefore(role));
    tracker.add(e, role);
  });
  safe.push(tracker.pendingCalls === 0);
  return safe;
}
