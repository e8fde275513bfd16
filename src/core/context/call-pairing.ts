/**
 * Which action each tool result answers, decided the way `eventsToMessages` decides it (by
 * `action_id`, else the latest unanswered call with the same `tool_call_id`), one event at a time.
 * The View uses it to drop an action and its result together, and to drop results that answer
 * nothing, so the messages it produces never depend on what was forgotten around them.
 */
import type { LlmConvertibleEvent } from '../events';

export type CallRole =
  | { type: 'action' }
  /**
   * Answers the ActionEvent with id `actionId` (its first answer). `inBatch`: the error of a call
   * with no action (refused or invalid), written among its batch's calls, which it does not end.
   */
  | { type: 'result'; actionId: string; inBatch?: true }
  /** A result for no known call, or a second result for an answered one: never shown. */
  | { type: 'orphan' }
  /** An AgentErrorEvent for a call that failed validation: the call and its answer in one event. */
  | { type: 'failed_call' }
  | { type: 'plain' };

export class CallPairing {
  /** ActionEvent id → answered yet. */
  private readonly answered = new Map<string, boolean>();
  /** Ids of ActionEvents with no action, whose error comes within their batch. */
  private readonly noAction = new Set<string>();
  /** tool_call_id → ids of unanswered ActionEvents with that call id, oldest first. */
  private readonly pending = new Map<string, string[]>();

  add(e: LlmConvertibleEvent): CallRole {
    switch (e.kind) {
      case 'ActionEvent': {
        this.answered.set(e.id, false);
        if (!e.action) this.noAction.add(e.id);
        const list = this.pending.get(e.tool_call_id);
        if (list) list.push(e.id);
        else this.pending.set(e.tool_call_id, [e.id]);
        return { type: 'action' };
      }
      case 'ObservationEvent':
      case 'UserRejectObservation': {
        const known = this.answered.get(e.action_id);
        const actionId =
          known === undefined ? this.pending.get(e.tool_call_id)?.at(-1) : known ? undefined : e.action_id;
        return actionId === undefined ? { type: 'orphan' } : this.answer(actionId, e.tool_call_id);
      }
      case 'AgentErrorEvent': {
        const actionId = this.pending.get(e.tool_call_id)?.at(-1);
        return actionId === undefined ? { type: 'failed_call' } : this.answer(actionId, e.tool_call_id);
      }
      default:
        return { type: 'plain' };
    }
  }

  /** The ActionEvent with this id was added (answered or not). */
  knows(actionId: string): boolean {
    return this.answered.has(actionId);
  }

  /** The ActionEvent with this id was added and nothing answered it yet. */
  isPending(actionId: string): boolean {
    return this.answered.get(actionId) === false;
  }

  private answer(actionId: string, toolCallId: string): CallRole {
    this.answered.set(actionId, true);
    const list = this.pending.get(toolCallId);
    const i = list?.lastIndexOf(actionId) ?? -1;
    if (list && i >= 0) {
      list.splice(i, 1);
      if (list.length === 0) this.pending.delete(toolCallId);
    }
    return this.noAction.delete(actionId)
      ? { type: 'result', actionId, inBatch: true }
      : { type: 'result', actionId };
  }
}

/** Roles of a list of events, pairing them among themselves. */
export function rolesOf(events: readonly LlmConvertibleEvent[]): CallRole[] {
  const pairing = new CallPairing();
  return events.map((e) => pairing.add(e));
}
