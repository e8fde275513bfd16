/** Events that never reach the LLM: state sync, condensation bookkeeping, control flow. */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { EventBaseSchema } from './base';

export const ConversationStateUpdateEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('ConversationStateUpdateEvent'),
    key: z.string(),
    value: z.unknown(),
  }),
);

export const CondensationSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('Condensation'),
    forgotten_event_ids: z.array(z.string()),
    // A long run of the view forgotten, by its first and last event (context/forgotten-range.ts);
    // Logbook's own field: the OpenHands export spells it out in forgotten_event_ids.
    forgotten_range: z
      .object({ first: z.string(), last: z.string(), count: z.number().int().positive() })
      .optional(),
    summary: z.string().nullable().optional(),
    // Where the summary is inserted in the condensed view.
    summary_offset: z.number().int().min(0).nullable().optional(),
    llm_response_id: z.string().nullable().optional(),
  }),
);

export const CondensationRequestSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('CondensationRequest'),
  }),
);

export const PauseEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('PauseEvent'),
  }),
);

export const ConversationErrorEventSchema = lazySchema(() =>
  EventBaseSchema.extend({
    kind: z.literal('ConversationErrorEvent'),
    code: z.string(),
    detail: z.string(),
  }),
);
