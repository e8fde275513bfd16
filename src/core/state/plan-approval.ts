import type { ConversationState } from './conversation-state';

/** Statuses after which a plan made in plan mode waits for the user (a run that ended). */
const PLAN_WAITS_AFTER: ReadonlySet<string> = new Set(['finished', 'idle']);

/**
 * In plan mode, a run that ended with a plan has not done the task: it waits for Approve plan.
 * Status bar and chat header read it from here, so they cannot disagree with the log.
 */
export function planAwaitsApproval(s: Pick<ConversationState, 'mode' | 'tasks' | 'status'>): boolean {
  return s.mode === 'plan' && s.tasks.length > 0 && PLAN_WAITS_AFTER.has(s.status);
}
