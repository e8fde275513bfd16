// Which presentation each event gets. Results (observations, rejections, tool errors) are folded
// into the card of the action they answer; `stats` state updates only feed the header, and the run
// starting or going idle says nothing the rows do not, so those get no row of their own (they stay
// in the log).
import type { EventJson } from '../../../src/protocol/messages';
import { str } from '../lib/fields';

export type RowView =
  'message' | 'action' | 'result' | 'condensation' | 'system' | 'notice' | 'corrupt' | 'unknown' | 'hidden';

/**
 * Bookkeeping updates: they move numbers in the header or record runtime facts (an LLM call's
 * usage, an action starting, an approval already shown by its card), they are not steps.
 */
const SILENT_STATE_KEYS = new Set([
  'stats',
  'usage',
  'metrics',
  'llm_usage',
  'action_started',
  'approved_actions',
  // The files as an action left them: bookkeeping for the restore preview.
  'checkpoint_after',
  // Which kind of shell commands run in (the user's startup files or none): for a replay to match.
  'shell',
  // Why an action ran without a question: its card says so.
  'unasked',
]);

/**
 * Statuses that tell the reader nothing the feed does not already show: the run starting (the next
 * rows are the agent at work), going idle (the user's turn), or waiting for approval (the card that
 * waits says so, and then says what was decided). They stay in the log and in the header; paused,
 * finished, error and stuck keep their line.
 */
const QUIET_STATUSES = new Set(['running', 'idle', 'waiting_for_confirmation']);

export function classify(e: EventJson): RowView {
  switch (e.kind) {
    case 'MessageEvent':
      return 'message';
    case 'ActionEvent':
      return 'action';
    case 'ObservationEvent':
    case 'UserRejectObservation':
    case 'AgentErrorEvent':
      return 'result';
    case 'Condensation':
    case 'CondensationSummaryEvent':
      return 'condensation';
    case 'SystemPromptEvent':
      return 'system';
    case 'ConversationStateUpdateEvent':
      // A checkpoint before an action is bookkeeping; the one a restore records is a step.
      if (e.key === 'checkpoint')
        return (e.value as { reason?: unknown } | null)?.reason === 'restore' ? 'notice' : 'hidden';
      // A delegated agent's start and end: its card under the delegation says both (a handoff stays).
      if (
        (e.key === 'agent_start' || e.key === 'agent_end') &&
        typeof (e.value as { conversation_id?: unknown } | null)?.conversation_id === 'string'
      )
        return 'hidden';
      if (e.key === 'execution_status' && QUIET_STATUSES.has((str(e.value) ?? '').toLowerCase()))
        return 'hidden';
      return SILENT_STATE_KEYS.has(str(e.key) ?? '') ? 'hidden' : 'notice';
    case 'PauseEvent':
    case 'CondensationRequest':
    case 'ConversationErrorEvent':
      return 'notice';
    case 'CorruptRecord':
      return 'corrupt';
    default:
      return 'unknown';
  }
}

/** Rough row heights before measurement; close guesses keep the scrollbar from jumping. */
export function estimateHeight(view: RowView): number {
  switch (view) {
    case 'message':
      return 72;
    case 'action':
      return 120;
    case 'result':
      return 64;
    case 'condensation':
    case 'system':
      return 34;
    default:
      return 26;
  }
}
