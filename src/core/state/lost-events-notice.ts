/**
 * The event that records a loss the user accepted: events the log once held were gone when it was
 * opened (a deleted segment file...), and the user chose to continue without them. It is what the
 * chat shows and what a later reader of the log finds; the state is otherwise unchanged (a
 * conversation left running is paused by recovery.ts as usual).
 */
import { type ConversationStateUpdateEvent, createEvent } from '../events';
import { describeLostEvents, type LostEvents } from '../log/lost-events';
import type { EventContext } from './recovery';

export const LOST_EVENTS_KEY = 'lost_events';

export interface LostEventsValue {
  reason: string;
  count: number;
  exact: boolean;
  ranges: { from: number; to: number }[];
  missing_segments: string[];
}

export function lostEventsNotice(lost: LostEvents, ctx: EventContext): ConversationStateUpdateEvent[] {
  const value: LostEventsValue = {
    reason:
      `${describeLostEvents(lost)}. The conversation continues without them: ` +
      'the agent no longer sees them and they cannot be shown.',
    count: lost.count,
    exact: lost.exact,
    ranges: lost.ranges.map((r) => ({ from: r.from, to: r.to })),
    missing_segments: [...lost.missingSegments],
  };
  return [
    createEvent('ConversationStateUpdateEvent', {
      id: ctx.newId(),
      timestamp: ctx.timestamp,
      ...(ctx.parentId !== undefined ? { parent_id: ctx.parentId } : {}),
      key: LOST_EVENTS_KEY,
      value,
    }),
  ];
}
