/**
 * JSON codec for events in the OpenHands SDK wire format.
 *
 * Round trip: schemas only validate (no defaults, no transforms), and the event object *is* the
 * parsed JSON, deep-frozen. So key order, nulls and unknown fields survive and `serializeEvent`
 * writes back what was read.
 */
import { type z } from 'zod';
import { stringifyJson } from '../json/stringify';
import { newEventId, nowTimestamp } from './base';
import { payloadIssues, type PayloadSchemas } from './payloads';
import { type DeepReadonly, deepFreeze } from './freeze';
import {
  EVENT_SCHEMAS,
  type Event,
  type EventInput,
  type EventKind,
  type EventOfKind,
  isKnownKind,
  type OpaqueEvent,
  OpaqueEventSchema,
} from './union';

export interface EventParseIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

export interface EventParseError {
  /** One line naming the record (index/id/kind) and every failing field path. */
  readonly message: string;
  readonly index?: number;
  readonly id?: string;
  readonly kind?: string;
  readonly issues: readonly EventParseIssue[];
}

export type ParseResult = { ok: true; event: Event } | { ok: false; error: EventParseError };

export interface ParseWhere {
  /** Position of the record in its log, used in error messages. */
  index?: number;
  /**
   * Leave the event unfrozen (default: frozen). Only for a reader that hands the event to nothing
   * that keeps it, such as an import copying records into a new log: freezing is a tenth of its work.
   */
  unfrozen?: boolean;
  /** The conversation's tool payload schemas (none: payloads are checked for their open shape only). */
  payloads?: PayloadSchemas;
}

/**
 * Parses one event. `json` is JSON text or an already-parsed value (which is copied, never frozen
 * in place). Unknown kinds give an OpaqueEvent; invalid records give an error, never a throw.
 */
export function parseEvent(json: unknown, where: ParseWhere = {}): ParseResult {
  let value: unknown;
  try {
    value = typeof json === 'string' ? JSON.parse(json) : jsonClone(json);
  } catch (err) {
    return failure(where, undefined, [{ path: [], message: `not valid JSON (${(err as Error).message})` }]);
  }
  return parseOwnedEvent(value, where);
}

/**
 * Parses a value the caller has just made with JSON.parse and hands over: it is validated and
 * frozen in place, without the copy `parseEvent` makes (which doubles the memory of a large event).
 */
export function parseOwnedEvent(value: unknown, where: ParseWhere = {}): ParseResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return failure(where, undefined, [{ path: [], message: `expected a JSON object, got ${got}` }]);
  }
  const record = value as Record<string, unknown>;
  const schema: z.ZodType = isKnownKind(record.kind) ? EVENT_SCHEMAS[record.kind] : OpaqueEventSchema;
  const result = schema.safeParse(record);
  const issues = result.success
    ? where.payloads
      ? payloadIssues(record, where.payloads)
      : []
    : result.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message }));
  if (issues.length > 0) return failure(where, record, issues);
  if (!isKnownKind(record.kind)) return { ok: true, event: opaqueEvent(record) };
  return { ok: true, event: (where.unfrozen ? record : deepFreeze(record)) as unknown as Event };
}

function opaqueEvent(record: Record<string, unknown>): OpaqueEvent {
  const e = {
    kind: 'OpaqueEvent',
    id: record.id,
    timestamp: record.timestamp,
    source: record.source,
    ...(record.parent_id !== undefined ? { parent_id: record.parent_id } : {}),
    original_kind: record.kind,
    raw: record,
  };
  // Writing an opaque event must reproduce the record exactly, even through plain JSON.stringify.
  Object.defineProperty(e, 'toJSON', { value: () => record, enumerable: false });
  return deepFreeze(e) as unknown as OpaqueEvent;
}

/** Serializes an event to its wire JSON (one line, no trailing newline). */
export function serializeEvent(e: Event): string {
  return stringifyJson(e)!;
}

/** Fields `createEvent` fills when absent, per kind. */
const DEFAULTS: { [K in EventKind]: Partial<EventInput<K>> } = {
  SystemPromptEvent: { source: 'agent' },
  MessageEvent: { activated_skills: [], extended_content: [] },
  ActionEvent: { source: 'agent', thought: [], thinking_blocks: [], security_risk: 'UNKNOWN' },
  ObservationEvent: { source: 'environment' },
  UserRejectObservation: { source: 'user', rejection_source: 'user' },
  AgentErrorEvent: { source: 'agent' },
  CondensationSummaryEvent: { source: 'environment' },
  ConversationStateUpdateEvent: { source: 'environment' },
  Condensation: { source: 'environment' },
  CondensationRequest: { source: 'environment' },
  PauseEvent: { source: 'user' },
  ConversationErrorEvent: { source: 'environment' },
};

type KnownKeys<T> = {
  [P in keyof T as string extends P ? never : number extends P ? never : P]: T[P];
};
type Filled = 'kind' | 'id' | 'timestamp' | 'source';
type Given<K extends EventKind> = KnownKeys<EventInput<K>>;
/** What a caller passes to `createEvent`: required fields, plus optional overrides of filled ones. */
export type CreateFields<K extends EventKind> = DeepReadonly<
  Omit<Given<K>, Filled | keyof (typeof DEFAULTS)[K]> &
    Partial<Pick<Given<K>, Extract<keyof Given<K>, Filled | keyof (typeof DEFAULTS)[K]>>>
>;

/**
 * Creates a validated, deep-frozen event: fills `id` (random UUID), `timestamp` (ISO with zone),
 * `source` (a per-kind default; a MessageEvent takes it from its role) and empty defaults.
 * Throws on invalid fields (and, given `payloads`, on a payload its tool's schema refuses):
 * creating an invalid event is a programming error.
 */
export function createEvent<K extends EventKind>(
  kind: K,
  fields: CreateFields<K>,
  payloads?: PayloadSchemas,
): EventOfKind<K> {
  const given = jsonClone(fields) as Record<string, unknown>;
  const { id, timestamp, source, ...rest } = given;
  // The default source must not overwrite the one given (a user's ActionEvent stays the user's).
  const { source: defaultSource, ...defaults } = jsonClone(DEFAULTS[kind]) as Record<string, unknown>;
  const record: Record<string, unknown> = {
    id: id ?? newEventId(),
    timestamp: timestamp ?? nowTimestamp(),
    source: source ?? defaultSource ?? defaultMessageSource(rest),
    ...defaults,
    ...rest,
  };
  delete record.kind;
  record.kind = kind; // last, as OpenHands writes it
  const result = EVENT_SCHEMAS[kind].safeParse(record);
  const issues = result.success
    ? payloads
      ? payloadIssues(record, payloads)
      : []
    : result.error.issues.map((i) => ({ path: i.path as (string | number)[], message: i.message }));
  if (issues.length > 0) throw new Error(failure({}, record, issues).error.message);
  return deepFreeze(record) as unknown as EventOfKind<K>;
}

function defaultMessageSource(fields: Record<string, unknown>): string {
  const role = (fields.llm_message as { role?: unknown } | undefined)?.role;
  return role === 'user' ? 'user' : 'agent';
}

function jsonClone(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(JSON.stringify(value));
}

function failure(
  where: ParseWhere,
  record: Record<string, unknown> | undefined,
  issues: EventParseIssue[],
): { ok: false; error: EventParseError } {
  const id = typeof record?.id === 'string' ? record.id : undefined;
  const kind = typeof record?.kind === 'string' ? record.kind : undefined;
  const names = [
    where.index !== undefined ? `#${where.index}` : undefined,
    id !== undefined ? `id ${id}` : undefined,
    kind !== undefined ? `kind ${kind}` : undefined,
  ].filter((s) => s !== undefined);
  const label = names.length > 0 ? `Invalid event (${names.join(', ')})` : 'Invalid event';
  const details = issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
  return {
    ok: false,
    error: { message: `${label}: ${details.join('; ')}`, index: where.index, id, kind, issues },
  };
}
