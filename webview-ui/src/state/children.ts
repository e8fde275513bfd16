// The shown conversation's delegated agents' events, per child, as the host sent them ('childEvents'):
// merged by seq (a child's first full fetch may cross its live appends) and dropped when another
// conversation is shown. The delegation card reads them; nothing here is persisted.
import { signal } from '@preact/signals';
import type { ChildAgent, EventJson, ViewEvent } from '../../../src/protocol/messages';

const byChild = new Map<string, ViewEvent[]>();
let owner: string | null = null;
/** Bumped whenever a child's events change. */
export const childVersion = signal(0);

/** Another conversation is shown: its children's events are not ours. */
export function resetChildren(conversationId: string | null): void {
  if (conversationId === owner) return;
  owner = conversationId;
  byChild.clear();
  childVersion.value++;
}

export function addChildEvents(conversationId: string, childId: string, events: readonly ViewEvent[]): void {
  if (conversationId !== owner) return;
  const list = byChild.get(childId) ?? [];
  const seen = new Set(list.map((e) => e.seq));
  const fresh = events.filter((e) => !seen.has(e.seq));
  if (!fresh.length) return;
  byChild.set(
    childId,
    [...list, ...fresh].sort((a, b) => a.seq - b.seq),
  );
  childVersion.value++;
}

/** One step of a child as its card lists it: a tool call with what answered it, or a message. */
export interface ChildStep {
  event: EventJson;
  result?: EventJson;
}

export function childSteps(childId: string): ChildStep[] {
  const steps: ChildStep[] = [];
  const actions = new Map<string, ChildStep>();
  for (const { event } of byChild.get(childId) ?? []) {
    if (event.kind === 'ActionEvent') {
      const step = { event };
      actions.set(event.id, step);
      steps.push(step);
    } else if (
      event.kind === 'ObservationEvent' ||
      event.kind === 'UserRejectObservation' ||
      event.kind === 'AgentErrorEvent'
    ) {
      const answered = typeof event.action_id === 'string' ? actions.get(event.action_id) : undefined;
      if (answered) answered.result = event;
      else if (event.kind === 'AgentErrorEvent') steps.push({ event });
    } else if (event.kind === 'MessageEvent' && event.source === 'agent') {
      steps.push({ event });
    }
  }
  return steps;
}

/** The key under which a delegated agent's card is open (a reveal opens it by the same key). */
export function childOpenKey(childId: string): string {
  return `child:${childId}`;
}

/** Whether an agent somewhere below `childId` waits for the user (its card then opens by itself). */
export function waitsBelow(childId: string, all: readonly ChildAgent[], seen = new Set<string>()): boolean {
  if (seen.has(childId)) return false;
  seen.add(childId);
  return all.some(
    (c) =>
      c.parentConversationId === childId &&
      (c.pendingActionIds.length > 0 || waitsBelow(c.conversationId, all, seen)),
  );
}
