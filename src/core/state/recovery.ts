/**
 * Crash recovery, as pure functions returning the events to append.
 *
 * A conversation found `running` when it is opened was not stopped cleanly (crash, killed window):
 * nothing is running it now. It becomes `paused`, with a `recovery` update that says why and lists
 * the in-doubt actions: ones whose `action_started` was recorded but whose result never was, so
 * their side effect may or may not have happened. Those are never re-run silently: the user picks
 * re-run (the runtime executes the action again) or skip (`resolveInDoubt` answers the call).
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { type AgentErrorEvent, type ConversationStateUpdateEvent, createEvent } from '../events';
import type { ConversationState, PendingAction } from './conversation-state';
import { EXECUTION_STATUS_KEY, RECOVERY_KEY } from './reducer';

export const RecoveryValueSchema = lazySchema(() =>
  z.looseObject({
    reason: z.string(),
    in_doubt_action_ids: z.array(z.string()),
  }),
);
export type RecoveryValue = z.output<typeof RecoveryValueSchema>;

/** Ids and time for the events built here: passed in so these functions stay pure. */
export interface EventContext {
  timestamp: string;
  newId: () => string;
  /**
   * `parent_id` of the first event built (each next one names the previous). Omitted by default:
   * an event without one follows the last event of the log, and OpenHands files have no such field.
   */
  parentId?: string;
}

export const SKIPPED_AFTER_CRASH = 'skipped after a crash by the user';

/** What the log store repaired when it was opened, for the recovery message. */
export interface OpenRepairs {
  /** bytes of a last record that was only partly written (the write never completed) and was cut off */
  truncatedBytes?: number;
}

/** Events to append when a conversation is opened: [] unless it was left `running`. */
export function recoveryEventsOnOpen(
  state: ConversationState,
  ctx: EventContext,
  repairs: OpenRepairs = {},
): ConversationStateUpdateEvent[] {
  if (state.status !== 'running') return [];
  const n = state.inDoubt.length;
  const torn = repairs.truncatedBytes ?? 0;
  const reason =
    'The conversation was running when Logbook stopped (crash or closed window), so it was paused.' +
    (torn > 0
      ? ` The log's last record had been only partly written (${torn} bytes) and was cut off; it had never been confirmed as saved.`
      : '') +
    (n > 0 ? ` ${n} action(s) had started without a recorded result: re-run or skip each.` : '');
  const value: RecoveryValue = { reason, in_doubt_action_ids: [...state.inDoubt] };
  return chain(ctx, [
    { key: RECOVERY_KEY, value },
    { key: EXECUTION_STATUS_KEY, value: 'paused' },
  ]);
}

/** The actions of `state` that are in doubt, for the UI to offer re-run / skip. */
export function inDoubtActions(state: ConversationState): PendingAction[] {
  return state.pendingActions.filter((p) => state.inDoubt.includes(p.actionId));
}

/**
 * Events that carry out the user's choice for an in-doubt action: for 'skip', an AgentErrorEvent
 * answering the call (so the LLM learns it did not run, and it is no longer pending); for 'rerun',
 * none: the runtime executes the action again and appends its observation.
 */
export function resolveInDoubt(
  action: Pick<PendingAction, 'toolCallId' | 'toolName'>,
  choice: 'rerun' | 'skip',
  ctx: EventContext,
): AgentErrorEvent[] {
  if (choice === 'rerun') return [];
  return [
    createEvent('AgentErrorEvent', {
      id: ctx.newId(),
      timestamp: ctx.timestamp,
      ...(ctx.parentId !== undefined ? { parent_id: ctx.parentId } : {}),
      error: SKIPPED_AFTER_CRASH,
      tool_name: action.toolName,
      tool_call_id: action.toolCallId,
    }),
  ];
}

function chain(
  ctx: EventContext,
  updates: { key: string; value: unknown }[],
): ConversationStateUpdateEvent[] {
  const out: ConversationStateUpdateEvent[] = [];
  for (const u of updates) {
    const parent = ctx.parentId === undefined ? undefined : (out[out.length - 1]?.id ?? ctx.parentId);
    out.push(
      createEvent('ConversationStateUpdateEvent', {
        id: ctx.newId(),
        timestamp: ctx.timestamp,
        ...(parent !== undefined ? { parent_id: parent } : {}),
        key: u.key,
        value: u.value,
      }),
    );
  }
  return out;
}
