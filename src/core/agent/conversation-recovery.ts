// What a conversation does about what was left unfinished: on open, the events the log lost and
// the run a crash interrupted (core/state/recovery.ts says what to record); later, the actions in
// doubt the user re-runs or skips, and the calls left unanswered when the user stops the agent.
import type { ActionEvent, CreateFields, Event } from '../events';
import type { EventStore } from '../log/event-store';
import { recoveryEventsOnOpen, SKIPPED_AFTER_CRASH, type ConversationState } from '../state';
import { lostEventsNotice } from '../state/lost-events-notice';
import type { ConversationJournal, ConversationLog } from './conversation-journal';
import type { StoredConversationEvent } from './event-codec';

/** Why an action left unanswered when the user stopped the agent did not run. */
export const STOPPED_BEFORE_RUN = 'The user stopped the agent before this action ran.';

/**
 * Records, on open, the events the log lost (the store opens such a log for writing only once the
 * user accepted the loss) and what a crash interrupted (a run found `running` is paused).
 */
export async function recoverOnOpen(
  journal: ConversationJournal,
  store: EventStore<StoredConversationEvent>,
): Promise<void> {
  const ctx = () => ({
    newId: () => crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    ...(journal.state.head ? { parentId: journal.state.head } : {}),
  });
  const lost = store.lostOnOpen;
  for (const e of lost ? lostEventsNotice(lost, ctx()) : []) await journal.appendEvent(e as Event, true);
  for (const e of recoveryEventsOnOpen(journal.state, ctx(), {
    truncatedBytes: store.truncatedOnOpen ?? 0,
  })) {
    await journal.appendEvent(e as Event, true);
  }
}

/** Of the pending actions, those that started before a crash and have no recorded result. */
export function inDoubtOf(state: ConversationState, pending: readonly ActionEvent[]): ActionEvent[] {
  const ids = new Set(state.inDoubt);
  return pending.filter((a) => ids.has(a.id));
}

/** Answers each action with an error the model reads, so no call it made stays open. */
export async function answerWithError(
  log: ConversationLog,
  actions: readonly ActionEvent[],
  error: string,
): Promise<void> {
  for (const a of actions) {
    await log.append('AgentErrorEvent', {
      error,
      tool_name: a.tool_name,
      tool_call_id: a.tool_call_id,
    } as CreateFields<'AgentErrorEvent'>);
  }
}

/** Answers actions in doubt as skipped, so the model learns they did not run again. */
export function skipInDoubt(log: ConversationLog, actions: readonly ActionEvent[]): Promise<void> {
  return answerWithError(log, actions, SKIPPED_AFTER_CRASH);
}
