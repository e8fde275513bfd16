// Recognises an agent that is going round in circles, from the events since the last user
// message (a new message from the user resets it). Patterns, with configurable thresholds:
// - the same action getting the same observation N times in a row (default 4);
// - the same action failing with the same error N times (default 3); the first time it is seen,
//   the agent is nudged instead, and only a repeat after the nudge counts as stuck;
// - N agent messages in a row with no action or observation between them (a monologue, default 3);
// - two action/observation pairs alternating A, B, A, B… over N steps (default 6).
import { observationText } from '../events/payloads';
import { textOf } from '../events/content';
import type { Event } from '../events';

export interface StuckThresholds {
  repeatedActionObservation: number;
  repeatedActionError: number;
  monologue: number;
  alternatingPattern: number;
}

export const DEFAULT_STUCK_THRESHOLDS: StuckThresholds = {
  repeatedActionObservation: 4,
  repeatedActionError: 3,
  monologue: 3,
  alternatingPattern: 6,
};

export type StuckPattern =
  'repeated_action_observation' | 'repeated_action_error' | 'monologue' | 'alternating';

export type StuckVerdict =
  | { kind: 'ok' }
  | { kind: 'nudge'; pattern: StuckPattern; message: string }
  | { kind: 'stuck'; pattern: StuckPattern; explanation: string };

/** Marker put on the nudge message so a later check knows the agent was already warned. */
export const STUCK_NUDGE_MARKER = '[logbook:stuck-nudge]';

interface Step {
  action: string;
  result: string;
  error: boolean;
  tool: string;
  /** Index (in the detector's input) of the event that answered the action. */
  at: number;
}

/** Events from the last user message on (the detector's whole input). */
export function eventsSinceLastUserMessage(events: readonly Event[]): Event[] {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === 'MessageEvent' && e.source === 'user' && !isNudge(e)) return events.slice(i + 1);
  }
  return [...events];
}

export function detectStuck(
  recent: readonly Event[],
  thresholds: StuckThresholds = DEFAULT_STUCK_THRESHOLDS,
): StuckVerdict {
  const steps = pairSteps(recent);

  const errorRun = trailingRun(steps, (a, b) => a.error && b.error && same(a, b));
  if (errorRun >= thresholds.repeatedActionError && steps.at(-1)?.error) {
    const last = steps.at(-1)!;
    // Only a warning given during this run counts: one about an earlier, different mistake does not.
    const runStart = steps[steps.length - errorRun]!.at;
    const nudged = recent.slice(runStart + 1).some(isNudge);
    if (!nudged) {
      return {
        kind: 'nudge',
        pattern: 'repeated_action_error',
        message: `${STUCK_NUDGE_MARKER} You have called ${last.tool} with the same arguments ${errorRun} times and got the same error each time. Do not repeat it: read the error, change your approach, or ask the user for help.`,
      };
    }
    return stuck(
      'repeated_action_error',
      `The agent called ${last.tool} with the same arguments ${errorRun} times in a row and got the same error each time, even after being warned.`,
    );
  }

  const sameRun = trailingRun(steps, (a, b) => !a.error && !b.error && same(a, b));
  if (sameRun >= thresholds.repeatedActionObservation) {
    return stuck(
      'repeated_action_observation',
      `The agent repeated the same ${steps.at(-1)!.tool} action ${sameRun} times and got the same result each time.`,
    );
  }

  const alternating = alternatingRun(steps);
  if (alternating >= thresholds.alternatingPattern) {
    return stuck(
      'alternating',
      `The agent alternated between the same two actions for ${alternating} steps without making progress.`,
    );
  }

  const monologue = trailingMonologue(recent);
  if (monologue >= thresholds.monologue) {
    return stuck(
      'monologue',
      `The agent sent ${monologue} messages in a row without acting or hearing from the user.`,
    );
  }
  return { kind: 'ok' };
}

function stuck(pattern: StuckPattern, explanation: string): StuckVerdict {
  return { kind: 'stuck', pattern, explanation };
}

function isNudge(e: Event): boolean {
  return e.kind === 'MessageEvent' && textOf(e.llm_message.content).startsWith(STUCK_NUDGE_MARKER);
}

/** Pairs each action (or failed call) with what answered it, in log order. */
function pairSteps(events: readonly Event[]): Step[] {
  const actions = new Map<string, { action: string; tool: string }>();
  const steps: Step[] = [];
  for (const [at, e] of events.entries()) {
    if (e.kind === 'ActionEvent') {
      actions.set(e.tool_call_id, {
        action: `${e.tool_name}:${canonical(e.action ?? e.tool_call.arguments)}`,
        tool: e.tool_name,
      });
    } else if (e.kind === 'ObservationEvent') {
      const a = actions.get(e.tool_call_id);
      const error = e.observation['is_error'] === true;
      if (a) steps.push({ ...a, result: observationText(e.observation), error, at });
    } else if (e.kind === 'AgentErrorEvent') {
      const a = actions.get(e.tool_call_id) ?? {
        action: `${e.tool_name}:${canonical(e.tool_call?.arguments ?? '')}`,
        tool: e.tool_name,
      };
      steps.push({ ...a, result: e.error, error: true, at });
    }
  }
  return steps;
}

/** Action identity ignores volatile fields (ids, thoughts); key order does not matter. */
function canonical(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return canonical(JSON.parse(value));
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k]) => k !== 'summary' && k !== 'security_risk')
      // Any fixed order will do; localeCompare would load the collator (ms) on the run's first step.
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${k}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function same(a: Step, b: Step): boolean {
  return a.action === b.action && a.result === b.result;
}

/** Length of the run of steps at the end that are all alike the last one. */
function trailingRun(steps: Step[], alike: (a: Step, b: Step) => boolean): number {
  const last = steps.at(-1);
  if (!last || !alike(last, last)) return 0;
  let n = 1;
  for (let i = steps.length - 2; i >= 0 && alike(steps[i]!, last); i--) n++;
  return n;
}

function alternatingRun(steps: Step[]): number {
  if (steps.length < 4) return 0;
  const a = steps.at(-1)!;
  const b = steps.at(-2)!;
  if (same(a, b)) return 0;
  let n = 2;
  for (let i = steps.length - 3; i >= 0; i--) {
    const expected = (steps.length - 1 - i) % 2 === 0 ? a : b;
    if (!same(steps[i]!, expected)) break;
    n++;
  }
  return n;
}

function trailingMonologue(events: readonly Event[]): number {
  let n = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.kind === 'MessageEvent' && e.source === 'agent') n++;
    else if (
      e.kind === 'MessageEvent' ||
      e.kind === 'ActionEvent' ||
      e.kind === 'ObservationEvent' ||
      e.kind === 'AgentErrorEvent' ||
      e.kind === 'UserRejectObservation'
    )
      break;
  }
  return n;
}
