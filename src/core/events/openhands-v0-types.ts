/**
 * OpenHands V0 event format (seed 001): `action`/`args` and `observation`/`content`/`extras`
 * records with numeric ids and a numeric `cause`. Enums as documented there.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { SecurityRisk } from './base';

export const AgentStateSchema = lazySchema(() =>
  z.enum([
    'LOADING',
    'INIT',
    'RUNNING',
    'AWAITING_USER_INPUT',
    'PAUSED',
    'STOPPED',
    'FINISHED',
    'REJECTED',
    'ERROR',
    'RATE_LIMITED',
    'AWAITING_USER_CONFIRMATION',
    'USER_CONFIRMED',
    'USER_REJECTED',
  ]),
);
export type AgentState = z.infer<typeof AgentStateSchema>;

export const V0EventSourceSchema = lazySchema(() => z.enum(['agent', 'user', 'environment']));
export const ActionConfirmationStatusSchema = lazySchema(() =>
  z.enum(['confirmed', 'rejected', 'awaiting_confirmation']),
);
/** -1 UNKNOWN, 0 LOW, 1 MEDIUM, 2 HIGH. */
export const ActionSecurityRiskSchema = lazySchema(() => z.literal([-1, 0, 1, 2]));
export const RecallTypeSchema = lazySchema(() =>
  z.enum(['environment_info', 'knowledge_microagent', 'default']),
);
export const FileEditSourceSchema = lazySchema(() => z.enum(['llm_based_edit', 'oh_aci']));
export const FileReadSourceSchema = lazySchema(() => z.enum(['oh_aci', 'default']));
export const ActionTypeSchema = lazySchema(() =>
  z.enum([
    'null',
    'run',
    'run_ipython',
    'browse',
    'browse_interactive',
    'read',
    'write',
    'edit',
    'message',
    'think',
    'delegate',
    'finish',
    'reject',
    'summarize',
    'recall',
    'change_agent_state',
  ]),
);
export type ActionType = z.infer<typeof ActionTypeSchema>;
export const ObservationTypeSchema = lazySchema(() =>
  z.enum([
    'null',
    'run',
    'run_ipython',
    'browse',
    'read',
    'write',
    'edit',
    'error',
    'success',
    'user_rejected',
    'agent_state_changed',
    'delegate',
    'think',
    'condense',
    'recall',
  ]),
);
export type ObservationType = z.infer<typeof ObservationTypeSchema>;

const record = lazySchema(() => z.record(z.string(), z.unknown()));

/**
 * One V0 record. Type strings stay open (`system`, `condensation`... exist in real files beyond
 * the documented enums); unknown ones are imported as opaque events rather than rejected.
 */
export const V0EventSchema = lazySchema(() =>
  z.looseObject({
    id: z.number().int().optional(),
    timestamp: z.string().optional(),
    source: z.string().optional(),
    message: z.string().optional(),
    cause: z.number().int().nullable().optional(),
    action: z.string().optional(),
    args: record.optional(),
    timeout: z.number().nullable().optional(),
    observation: z.string().optional(),
    content: z.string().optional(),
    extras: record.optional(),
    success: z.boolean().optional(),
    // Present when the agent used native function calling: ties the record to the LLM's call.
    tool_call_metadata: z
      .looseObject({
        function_name: z.string().optional(),
        tool_call_id: z.string().optional(),
        model_response: z.looseObject({ id: z.string().optional() }).nullable().optional(),
        total_calls_in_response: z.number().optional(),
      })
      .nullable()
      .optional(),
  }),
);
export type V0Event = z.infer<typeof V0EventSchema>;

/** Kinds of the payloads/events that carry V0 records we have no closer match for. */
export const V0_ACTION_KIND = 'OpenHandsV0Action';
export const V0_OBSERVATION_KIND = 'OpenHandsV0Observation';
export const V0_EVENT_KIND = 'OpenHandsV0Event';

const RISKS: readonly SecurityRisk[] = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'];
export function riskFromV0(n: unknown): SecurityRisk {
  const parsed = ActionSecurityRiskSchema.safeParse(n);
  return parsed.success ? (RISKS[parsed.data + 1] ?? 'UNKNOWN') : 'UNKNOWN';
}
export function riskToV0(r: SecurityRisk | undefined): -1 | 0 | 1 | 2 {
  return (RISKS.indexOf(r ?? 'UNKNOWN') - 1) as -1 | 0 | 1 | 2;
}

/** V0 files write AgentState values lowercase; the documented names are uppercase. Accept both. */
export function parseAgentState(value: unknown): AgentState | undefined {
  const r = AgentStateSchema.safeParse(typeof value === 'string' ? value.toUpperCase() : value);
  return r.success ? r.data : undefined;
}

/** V0 agent state -> OpenHands SDK `execution_status` (the key the state reducer follows). */
const TO_STATUS: Record<AgentState, string> = {
  LOADING: 'idle',
  INIT: 'idle',
  RUNNING: 'running',
  AWAITING_USER_INPUT: 'idle',
  PAUSED: 'paused',
  STOPPED: 'paused',
  FINISHED: 'finished',
  REJECTED: 'finished',
  ERROR: 'error',
  RATE_LIMITED: 'error',
  AWAITING_USER_CONFIRMATION: 'waiting_for_confirmation',
  USER_CONFIRMED: 'running',
  USER_REJECTED: 'running',
};
const FROM_STATUS: Record<string, AgentState> = {
  idle: 'AWAITING_USER_INPUT',
  running: 'RUNNING',
  paused: 'PAUSED',
  waiting_for_confirmation: 'AWAITING_USER_CONFIRMATION',
  finished: 'FINISHED',
  error: 'ERROR',
  stuck: 'ERROR',
};
export function statusFromAgentState(s: AgentState): string {
  return TO_STATUS[s];
}
export function agentStateFromStatus(status: unknown): AgentState | undefined {
  return typeof status === 'string' ? FROM_STATUS[status] : undefined;
}

/**
 * Deterministic UUIDs for numeric V0 ids, so importing twice gives the same events and export
 * can recover the number. Records without an id get ids from their position (another prefix).
 */
export function uuidForV0Id(n: number, fromPosition = false): string {
  const tail = Math.max(0, Math.trunc(n)).toString(16).padStart(12, '0').slice(-12);
  return `00000000-0000-4000-${fromPosition ? '8001' : '8000'}-${tail}`;
}
export function v0IdFromUuid(id: string): number | undefined {
  const m = /^00000000-0000-4000-8000-([0-9a-f]{12})$/.exec(id);
  return m ? parseInt(m[1] as string, 16) : undefined;
}
