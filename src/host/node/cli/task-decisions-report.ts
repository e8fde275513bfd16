// `logbook show`'s list of what the user decided about a worktree task's change (rejections,
// apply, discard), read from the log as the hook runs are: from the state's snapshot on.
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { type EventStore, isCorruptRecord } from '../../../core/log';
import {
  isTaskDecision,
  TASK_DECISION_KEY,
  type TaskDecision,
  taskDecisionText,
} from '../../../core/worktrees/task-decision';

const CHUNK = 200;

export async function recordedTaskDecisions(
  store: EventStore<StoredConversationEvent>,
  from: number,
): Promise<TaskDecision[]> {
  const found: TaskDecision[] = [];
  for (let i = from; i < store.length; i += CHUNK) {
    for (const slot of await store.slice(i, Math.min(store.length, i + CHUNK))) {
      if (isCorruptRecord(slot)) continue;
      const e = slot as { kind?: string; key?: string; value?: unknown };
      if (e.kind === 'ConversationStateUpdateEvent' && e.key === TASK_DECISION_KEY && isTaskDecision(e.value))
        found.push(e.value);
    }
  }
  return found;
}

export function taskDecisionLines(decisions: readonly TaskDecision[], from: number): string[] {
  if (!decisions.length) return [];
  return [
    from > 0 ? `task decisions (since event ${from}):` : 'task decisions:',
    ...decisions.map((d) => `  [task] ${taskDecisionText(d)}`),
  ];
}
