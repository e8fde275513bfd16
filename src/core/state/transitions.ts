/**
 * Execution status and its transitions.
 *
 * The runtime records every transition it makes as `ConversationStateUpdateEvent
 * {key: 'execution_status', value}` (as OpenHands does). Such explicit updates are always applied,
 * because the log is the truth; one the table below does not allow is also recorded as a warning.
 *
 * Explicit transitions (same -> same is always allowed and changes nothing):
 *
 *   from \ to                 idle running paused waiting finished error stuck
 *   idle                        =     ok     ok      -       ok      ok    -
 *   running                     ok    =      ok      ok      ok      ok    ok
 *   paused                      ok    ok     =       -       ok      ok    -
 *   waiting_for_confirmation    ok    ok     ok      =       -       ok    -
 *   finished                    ok    ok     -       -       =       ok    -
 *   error                       ok    ok     -       -       -       =     -
 *   stuck                       ok    ok     -       -       -       ok    =
 *
 * Implicit rules, for logs (or steps) without explicit updates. "." = status unchanged:
 *
 *   trigger \ from              idle     running  paused   waiting  finished error  stuck
 *   user MessageEvent           idle     .        .        .        idle     idle   idle
 *   PauseEvent                  paused   paused   paused   paused   .        .      .
 *   ConversationErrorEvent      error    error    error    error    error    error  error
 *   final agent MessageEvent    finished finished finished .        .        .      .
 *   observation of `finish`     finished finished finished .        .        .      .
 *
 * Why: a user message ends a finished/failed run but does not start one (only the runtime knows
 * when it runs); a pause or a late reply cannot revive a run that already ended; errors end
 * anything. Every implicit change is also an allowed explicit transition (tested).
 */

export const EXECUTION_STATUSES = [
  'idle',
  'running',
  'paused',
  'waiting_for_confirmation',
  'finished',
  'error',
  'stuck',
] as const;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

const ALLOWED: Readonly<Record<ExecutionStatus, readonly ExecutionStatus[]>> = {
  idle: ['running', 'paused', 'finished', 'error'],
  running: ['idle', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck'],
  paused: ['idle', 'running', 'finished', 'error'],
  waiting_for_confirmation: ['idle', 'running', 'paused', 'error'],
  finished: ['idle', 'running', 'error'],
  error: ['idle', 'running'],
  stuck: ['idle', 'running', 'error'],
};

export function isValidTransition(from: ExecutionStatus, to: ExecutionStatus): boolean {
  return from === to || ALLOWED[from].includes(to);
}

export type ImplicitTrigger =
  'user_message' | 'pause' | 'conversation_error' | 'agent_final_message' | 'finish_observation';

export const IMPLICIT_TRIGGERS: readonly ImplicitTrigger[] = [
  'user_message',
  'pause',
  'conversation_error',
  'agent_final_message',
  'finish_observation',
];

const ENDS_RUN: Partial<Record<ExecutionStatus, ExecutionStatus>> = {
  idle: 'finished',
  running: 'finished',
  paused: 'finished',
};

const IMPLICIT: Readonly<Record<ImplicitTrigger, Partial<Record<ExecutionStatus, ExecutionStatus>>>> = {
  user_message: { idle: 'idle', finished: 'idle', error: 'idle', stuck: 'idle' },
  pause: { idle: 'paused', running: 'paused', paused: 'paused', waiting_for_confirmation: 'paused' },
  conversation_error: Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 'error' as const])),
  agent_final_message: ENDS_RUN,
  finish_observation: ENDS_RUN,
};

/** The status after an implicit trigger (the status itself when the rule leaves it unchanged). */
export function implicitTransition(from: ExecutionStatus, trigger: ImplicitTrigger): ExecutionStatus {
  return IMPLICIT[trigger][from] ?? from;
}

/** Reads an `execution_status` value; OpenHands enum names ('RUNNING') are accepted too. */
export function parseExecutionStatus(value: unknown): ExecutionStatus | null {
  if (typeof value !== 'string') return null;
  const v = value.toLowerCase();
  return (EXECUTION_STATUSES as readonly string[]).includes(v) ? (v as ExecutionStatus) : null;
}
