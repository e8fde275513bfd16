/**
 * The event union. Known kinds are validated by their schema; a record of any other kind (a newer
 * version, another tool) is kept as an OpaqueEvent so it never makes a conversation unreadable.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { EventBaseSchema } from './base';
import type { DeepReadonly } from './freeze';
import {
  CondensationRequestSchema,
  CondensationSchema,
  ConversationErrorEventSchema,
  ConversationStateUpdateEventSchema,
  PauseEventSchema,
} from './internal-events';
import {
  ActionEventSchema,
  AgentErrorEventSchema,
  CondensationSummaryEventSchema,
  MessageEventSchema,
  ObservationEventSchema,
  SystemPromptEventSchema,
  UserRejectObservationSchema,
} from './llm-events';

export const EVENT_SCHEMAS = {
  SystemPromptEvent: SystemPromptEventSchema,
  MessageEvent: MessageEventSchema,
  ActionEvent: ActionEventSchema,
  ObservationEvent: ObservationEventSchema,
  UserRejectObservation: UserRejectObservationSchema,
  AgentErrorEvent: AgentErrorEventSchema,
  CondensationSummaryEvent: CondensationSummaryEventSchema,
  ConversationStateUpdateEvent: ConversationStateUpdateEventSchema,
  Condensation: CondensationSchema,
  CondensationRequest: CondensationRequestSchema,
  PauseEvent: PauseEventSchema,
  ConversationErrorEvent: ConversationErrorEventSchema,
} as const;

export type EventKind = keyof typeof EVENT_SCHEMAS;
export const EVENT_KINDS = Object.keys(EVENT_SCHEMAS) as EventKind[];

/** Wire shape (what zod accepts) and the immutable event type for each known kind. */
export type EventInput<K extends EventKind> = z.input<(typeof EVENT_SCHEMAS)[K]>;
export type EventOfKind<K extends EventKind> = DeepReadonly<z.output<(typeof EVENT_SCHEMAS)[K]>>;

export type SystemPromptEvent = EventOfKind<'SystemPromptEvent'>;
export type MessageEvent = EventOfKind<'MessageEvent'>;
export type ActionEvent = EventOfKind<'ActionEvent'>;
export type ObservationEvent = EventOfKind<'ObservationEvent'>;
export type UserRejectObservation = EventOfKind<'UserRejectObservation'>;
export type AgentErrorEvent = EventOfKind<'AgentErrorEvent'>;
export type CondensationSummaryEvent = EventOfKind<'CondensationSummaryEvent'>;
export type ConversationStateUpdateEvent = EventOfKind<'ConversationStateUpdateEvent'>;
export type Condensation = EventOfKind<'Condensation'>;
export type CondensationRequest = EventOfKind<'CondensationRequest'>;
export type PauseEvent = EventOfKind<'PauseEvent'>;
export type ConversationErrorEvent = EventOfKind<'ConversationErrorEvent'>;

export type KnownEvent = { [K in EventKind]: EventOfKind<K> }[EventKind];

/**
 * Envelope of an event whose kind this version does not know. It must still look like an event
 * (id, timestamp, source); everything else is unchecked.
 */
export const OpaqueEventSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    kind: z.string().min(1),
    timestamp: z.string(),
    source: z.string(),
    parent_id: z.string().nullable().optional(),
  }),
);

/**
 * An event of an unknown kind, kept so the conversation stays readable. Its `kind` is the literal
 * 'OpaqueEvent' (so `e.kind === 'MessageEvent'` narrows the union as usual); the record as read is
 * in `raw`, and serializing the event (JSON.stringify honours its `toJSON`) writes `raw` back.
 */
export interface OpaqueEvent {
  readonly kind: 'OpaqueEvent';
  readonly id: string;
  readonly timestamp: string;
  readonly source: string;
  readonly parent_id?: string | null;
  /** The `kind` written in the record. */
  readonly original_kind: string;
  readonly raw: DeepReadonly<Record<string, unknown>>;
}

export type Event = KnownEvent | OpaqueEvent;

/** Discriminated union of the known kinds, for callers that want a plain zod schema. */
export const KnownEventSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    SystemPromptEventSchema,
    MessageEventSchema,
    ActionEventSchema,
    ObservationEventSchema,
    UserRejectObservationSchema,
    AgentErrorEventSchema,
    CondensationSummaryEventSchema,
    ConversationStateUpdateEventSchema,
    CondensationSchema,
    CondensationRequestSchema,
    PauseEventSchema,
    ConversationErrorEventSchema,
  ]),
);

export function isKnownKind(kind: unknown): kind is EventKind {
  return typeof kind === 'string' && Object.prototype.hasOwnProperty.call(EVENT_SCHEMAS, kind);
}

export function isOpaque(e: Event): e is OpaqueEvent {
  return e.kind === 'OpaqueEvent';
}

/** Narrows to one known kind; same as `e.kind === kind`, usable as a filter callback. */
export function isKind<K extends EventKind>(kind: K): (e: Event) => e is EventOfKind<K>;
export function isKind<K extends EventKind>(e: Event, kind: K): e is EventOfKind<K>;
export function isKind<K extends EventKind>(
  a: Event | K,
  b?: K,
): boolean | ((e: Event) => e is EventOfKind<K>) {
  if (typeof a === 'string') return (e: Event): e is EventOfKind<K> => e.kind === a;
  return a.kind === b;
}

export { EventBaseSchema };
