/** Events that become LLM messages (OpenHands `LLMConvertibleEvent` subclasses). */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { EventBaseSchema, SecurityRiskSchema } from './base';
import { MessageSchema, MessageToolCallSchema, TextContentSchema, ThinkingBlockSchema } from './content';
import { ActionPayloadSchema, ObservationPayloadSchema } from './payloads';

const nullableString = lazySchema(() => z.string().nullable().optional());

export const SystemPromptEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('SystemPromptEvent'),
    system_prompt: TextContentSchema,
    // Tool definitions as sent to the LLM; their shape belongs to the tools/llm modules.
    tools: z.array(z.record(z.string(), z.unknown())),
  }),
);

export const MessageEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('MessageEvent'),
    llm_message: MessageSchema,
    llm_response_id: nullableString,
    activated_skills: z.array(z.string()).optional(),
    // Context injected for the LLM (e.g. skill text) and appended to the message content.
    extended_content: z.array(TextContentSchema).optional(),
    sender: nullableString,
  }),
);

export const ActionEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('ActionEvent'),
    thought: z.array(TextContentSchema),
    reasoning_content: nullableString,
    thinking_blocks: z.array(ThinkingBlockSchema).optional(),
    responses_reasoning_item: z.unknown().optional(),
    // null when the call could not be turned into a valid action.
    action: ActionPayloadSchema.nullable(),
    tool_name: z.string(),
    tool_call_id: z.string(),
    tool_call: MessageToolCallSchema,
    // Shared by every call of one LLM response (parallel function calling).
    llm_response_id: z.string(),
    security_risk: SecurityRiskSchema.optional(),
    critic_result: z.unknown().optional(),
    summary: nullableString,
  }),
);

export const ObservationEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('ObservationEvent'),
    observation: ObservationPayloadSchema,
    action_id: z.string(),
    tool_name: z.string(),
    tool_call_id: z.string(),
  }),
);

export const UserRejectObservationSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('UserRejectObservation'),
    rejection_reason: z.string(),
    rejection_source: z.enum(['user', 'hook']).optional(),
    action_id: z.string(),
    tool_name: z.string(),
    tool_call_id: z.string(),
  }),
);

export const AgentErrorEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('AgentErrorEvent'),
    error: z.string(),
    tool_name: z.string(),
    tool_call_id: z.string(),
    // Logbook extensions (absent in OpenHands files). When a call of a batch fails validation there is
    // no ActionEvent for it; these let the prompt rebuild that call inside its batch.
    tool_call: MessageToolCallSchema.optional(),
    llm_response_id: z.string().optional(),
  }),
);

/** Derived by the context View when a Condensation is applied; never stored in the log. */
export const CondensationSummaryEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('CondensationSummaryEvent'),
    summary: z.string(),
  }),
);
