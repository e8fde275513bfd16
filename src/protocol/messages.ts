// Every message between the chat webview and the extension, declared once with zod and validated on
// both sides. Objects are strict (unknown fields reject the message) and every string and array is
// bounded, so a hostile or buggy peer cannot make the other side act on, or hold, arbitrary data.
import { z } from 'zod';

/** Bounds shared by both sides; the webview uses them to disable inputs before the schema would refuse. */
export const LIMITS = {
  id: 200,
  title: 2_000,
  status: 100,
  kind: 200,
  messageText: 100_000,
  rejectReason: 10_000,
  commandPrefix: 1_000,
  actionIds: 256,
  eventsPerMessage: 5_000,
  streamText: 100_000,
  riskReason: 1_000,
} as const;

const Id = z.string().min(1).max(LIMITS.id);
const Count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const Money = z.number().nonnegative().max(1e12);

export type EventJson = { kind: string; id: string; [field: string]: unknown };

/** What the protocol requires of an event: an object with a short non-empty string `kind` and `id`. */
export function isEventJson(v: unknown): v is EventJson {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const { kind, id } = v as { kind?: unknown; id?: unknown };
  return (
    typeof kind === 'string' &&
    kind.length > 0 &&
    kind.length <= LIMITS.kind &&
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= LIMITS.id
  );
}

/**
 * A log event as the view receives it: its sequence number in the conversation plus the JSON.
 * Only `kind` and `id` are checked (the renderers treat every other field as untrusted `unknown`),
 * and with a predicate rather than an object schema: the event is not copied, which matters when a
 * resync brings 10,000 of them and the webview's zod runs without its JIT (the CSP forbids eval).
 */
export const ViewEvent = z.object({
  seq: Count,
  event: z.custom<EventJson>(isEventJson, 'an event needs a string "kind" and "id" (1-200 characters)'),
});
export type ViewEvent = z.infer<typeof ViewEvent>;

/** A pending action's risk once the rule-based analyzers had their say, and why. */
export const PendingRisk = z.strictObject({
  actionId: Id,
  risk: z.enum(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN']),
  reason: z.string().max(LIMITS.riskReason),
});
export type PendingRisk = z.infer<typeof PendingRisk>;

/** What the panel header shows; mirrors the backend's ConversationHeader. */
export const ConversationHeader = z.strictObject({
  id: Id,
  title: z.string().max(LIMITS.title),
  status: z.string().max(LIMITS.status),
  promptTokens: Count,
  completionTokens: Count,
  cachedTokens: Count,
  cost: Money,
  /** Ids of the ActionEvents waiting for Confirm / Reject: exactly one batch. */
  pendingActionIds: z.array(Id).max(LIMITS.actionIds),
  /** The effective risk of each pending action (the card shows it when it differs from the model's). */
  pendingRisks: z.array(PendingRisk).max(LIMITS.actionIds).optional(),
  readOnly: z.boolean(),
  /** What Logbook: Verify Conversation found when last run on it in this window; absent: not checked. */
  signature: z.enum(['verified', 'broken', 'unsigned']).optional(),
});
export type ConversationHeader = z.infer<typeof ConversationHeader>;

/** Kept for the conversation service and tree, which list conversations by these three fields. */
export const ConversationSummary = z.object({ id: z.string(), title: z.string(), status: z.string() });
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** Transient model output while it answers: shown live, replaced by the real events, never persisted. */
export const StreamDelta = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string().max(LIMITS.streamText) }),
  z.strictObject({ type: z.literal('reasoning'), text: z.string().max(LIMITS.streamText) }),
  z.strictObject({
    type: z.literal('tool_call'),
    index: z.number().int().min(0).max(1_000),
    name: z.string().max(LIMITS.kind).optional(),
    argumentsDelta: z.string().max(LIMITS.streamText),
  }),
  z.strictObject({ type: z.literal('end') }),
  /** The attempt that streamed so far failed and is retried: drop what was shown of it. */
  z.strictObject({ type: z.literal('discard') }),
]);
export type StreamDelta = z.infer<typeof StreamDelta>;

/** Extension → webview. */
export const HostMessage = z.discriminatedUnion('type', [
  /** The conversation shown changed (or null: the empty state); a different id drops the view's events. */
  z.strictObject({ type: z.literal('conversation'), header: ConversationHeader.nullable() }),
  /** Status, tokens, cost or the pending batch of the shown conversation changed. */
  z.strictObject({ type: z.literal('header'), header: ConversationHeader }),
  /** New events only (seq > the last one sent); the initial sync comes in several of these. */
  z.strictObject({
    type: z.literal('events'),
    conversationId: Id,
    events: z.array(ViewEvent).max(LIMITS.eventsPerMessage),
  }),
  z.strictObject({ type: z.literal('stream'), conversationId: Id, delta: StreamDelta }),
  /**
   * The view gets only the newest events of a long conversation: drop every event held and expect
   * them from `firstSeq` on; earlier ones come on request ('loadEarlier').
   */
  z.strictObject({ type: z.literal('window'), conversationId: Id, firstSeq: Count }),
  /** Answer to 'loadEarlier': the events just before the first one the view holds, in order. */
  z.strictObject({
    type: z.literal('earlier'),
    conversationId: Id,
    events: z.array(ViewEvent).max(LIMITS.eventsPerMessage),
  }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

const inConversation = { conversationId: Id };

/** The settings the chat may open, for the error card of a failed model call. */
export const LLM_SETTING_IDS = [
  'logbook.llm',
  'logbook.llm.baseUrl',
  'logbook.llm.model',
  'logbook.llm.replyTimeoutSeconds',
  'logbook.llm.maxReplyBytes',
] as const;
export type LlmSettingId = (typeof LLM_SETTING_IDS)[number];

/** Webview → extension: the user's intents, plus `ready` (which asks for a resync). */
export const WebviewMessage = z.discriminatedUnion('type', [
  /** Sent on every load: the conversation and last seq the view already holds (-1: none). */
  z.strictObject({
    type: z.literal('ready'),
    conversationId: Id.nullable(),
    lastSeq: z.number().int().min(-1),
  }),
  z.strictObject({
    type: z.literal('sendMessage'),
    text: z.string().min(1).max(LIMITS.messageText),
    attachActiveFile: z.boolean(),
    attachSelection: z.boolean(),
  }),
  z.strictObject({ type: z.literal('startTask') }),
  z.strictObject({
    type: z.literal('approve'),
    ...inConversation,
    actionIds: z.array(Id).min(1).max(LIMITS.actionIds),
  }),
  z.strictObject({
    type: z.literal('reject'),
    ...inConversation,
    actionIds: z.array(Id).min(1).max(LIMITS.actionIds),
    reason: z.string().max(LIMITS.rejectReason),
  }),
  z.strictObject({
    type: z.literal('alwaysAllow'),
    ...inConversation,
    actionId: Id,
    commandPrefix: z
      .string()
      .max(LIMITS.commandPrefix)
      .refine((s) => s.trim().length > 0, 'empty command prefix'),
  }),
  z.strictObject({ type: z.literal('pause'), ...inConversation }),
  z.strictObject({ type: z.literal('resume'), ...inConversation }),
  z.strictObject({ type: z.literal('stop'), ...inConversation }),
  z.strictObject({ type: z.literal('forkFrom'), ...inConversation, eventId: Id }),
  /** "Restore files to here": the workspace's files as they were at this event (previewed, asked first). */
  z.strictObject({ type: z.literal('restoreFiles'), ...inConversation, eventId: Id }),
  z.strictObject({ type: z.literal('openDiff'), ...inConversation, actionId: Id }),
  z.strictObject({ type: z.literal('openInEditor') }),
  /** "Open Settings" on a failed model call: only the model's own settings can be asked for. */
  z.strictObject({ type: z.literal('openSettings'), setting: z.enum(LLM_SETTING_IDS) }),
  /** "Set API Key" on a refused key: runs the command that asks for it (the key never crosses here). */
  z.strictObject({ type: z.literal('setApiKey') }),
  /** Asks for the events before `beforeSeq` (the first one the view holds). */
  z.strictObject({ type: z.literal('loadEarlier'), ...inConversation, beforeSeq: Count }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;
export type WebviewMessageType = WebviewMessage['type'];

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Error text kept short: it goes to a log line and must not echo a huge hostile payload. */
function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const type =
    typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
      ? String((raw as { type: string }).type).slice(0, 40)
      : typeof raw;
  return { ok: false, error: `(${type}) ${z.prettifyError(r.error).slice(0, 500)}` };
}

export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith(WebviewMessage, raw);
}

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith(HostMessage, raw);
}
