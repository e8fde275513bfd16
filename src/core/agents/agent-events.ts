// How agents appear in a log. Every event an agent appends carries `agent_name` and `branch` (the
// path of delegations that led to it: `main`, `main.explore.2`), written into the record and so
// inside what the signature chain covers. An agent's life is marked by two
// ConversationStateUpdateEvents, a kind the OpenHands SDK takes with any key:
// - `agent_start`: in the parent's log when it starts a child (naming the child's conversation, its
//   did:key and the parent's delegating action), as the first event of the child's own log
//   (naming the parent's conversation and action), and at a handoff (`handoff: true`);
// - `agent_end`: how it ended (finished, escalated, error...) and its final message.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { MAIN_AGENT } from './definition';

export const AGENT_START_KEY = 'agent_start';
export const AGENT_END_KEY = 'agent_end';

export interface AgentStamp {
  agent_name: string;
  branch: string;
}

export const MAIN_STAMP: AgentStamp = { agent_name: MAIN_AGENT, branch: MAIN_AGENT };

/** What the agent was granted (effective-grant.ts), as its start records it: a resume reads it back. */
export const RecordedGrantSchema = lazySchema(() =>
  z.object({
    mode: z.enum(['plan', 'act']),
    tools: z.array(z.string()).nullable(),
    confirmation: z.enum(['always', 'risky', 'never']),
    maxIterations: z.number().nullable(),
    maxTokens: z.number().nullable(),
    maxCost: z.number().nullable(),
    allowedHosts: z.array(z.string()).nullable(),
  }),
);

export const AgentStartValueSchema = lazySchema(() =>
  z.looseObject({
    agent_name: z.string().min(1),
    branch: z.string().min(1),
    /** The did:key that signs this agent's events. */
    did: z.string().nullable().optional(),
    /** In the parent's log: the child's conversation id and folder (relative to the parent's). */
    conversation_id: z.string().optional(),
    folder: z.string().optional(),
    /** The action that delegated (in the parent's log) or that this child answers (in the child's). */
    parent_event_id: z.string().optional(),
    parent_conversation_id: z.string().optional(),
    task: z.string().optional(),
    /** The model it runs on: its definition's, else the one its parent runs on. */
    model: z.string().optional(),
    /** A handoff: the same log goes on with this agent. */
    handoff: z.boolean().optional(),
    /**
     * At a handoff: what the conversation had used when this agent took over. Its grant's tokens and
     * cost are what it may spend from there, so the conversation stops at these plus those.
     */
    spent: z.object({ tokens: z.number(), cost: z.number() }).optional().catch(undefined),
    /** What its definition asked for beyond its parent's grant and did not get (effective-grant.ts). */
    narrowed: z.array(z.string()).optional(),
    /** Everything it may do, within its parent's. */
    grant: RecordedGrantSchema.optional().catch(undefined),
  }),
);
export type AgentStartValue = z.infer<typeof AgentStartValueSchema>;

export const AgentEndValueSchema = lazySchema(() =>
  z.looseObject({
    agent_name: z.string().min(1),
    branch: z.string().min(1),
    conversation_id: z.string().optional(),
    status: z.string(),
    escalated: z.boolean().optional(),
    /** The user stopped it before it finished (its status is then the `paused` a stop leaves). */
    stopped: z.boolean().optional(),
    message: z.string().nullable().optional(),
  }),
);
export type AgentEndValue = z.infer<typeof AgentEndValueSchema>;

/** The event with its agent's stamp, the stamp's fields first after `id` (as the record is read). */
export function stampEvent<E extends object>(event: E, stamp: AgentStamp): E {
  if ('agent_name' in event) return event;
  return { ...event, agent_name: stamp.agent_name, branch: stamp.branch };
}

/** The stamp an event carries; the main agent's for events written before stamps existed. */
export function stampOf(event: object): AgentStamp {
  const e = event as { agent_name?: unknown; branch?: unknown };
  return typeof e.agent_name === 'string' && typeof e.branch === 'string'
    ? { agent_name: e.agent_name, branch: e.branch }
    : MAIN_STAMP;
}
