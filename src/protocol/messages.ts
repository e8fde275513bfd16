// Every message between the chat webview and the extension, declared once with zod and validated on
// both sides. Objects are strict (unknown fields reject the message) and every string and array is
// bounded, so a hostile or buggy peer cannot make the other side act on, or hold, arbitrary data.
// Written with zod/mini (functions rather than methods, so a bundle keeps only what it calls): the
// webview bundles these schemas, and the full zod API would be most of its size.
// This module holds the extension's side and the parsers; the shared bounds are in basics.ts and the
// webview's intents in webview-intents.ts, both re-exported here so callers keep one import.
import * as z from 'zod/mini';
import { lazySchema } from '../core/schema/lazy-schema';
import { AgentMode, Count, Id, LIMITS, Money, Path } from './basics';
import { WebviewMessage } from './webview-intents';

export { AgentMode, LIMITS } from './basics';
export {
  Attachment,
  LLM_SETTING_IDS,
  type LlmSettingId,
  PlanItem,
  WebviewMessage,
  type WebviewMessageType,
} from './webview-intents';

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
export const ViewEvent = lazySchema(() =>
  z.object({
    seq: Count,
    event: z.custom<EventJson>(isEventJson, 'an event needs a string "kind" and "id" (1-200 characters)'),
  }),
);
export type ViewEvent = z.infer<typeof ViewEvent>;

/** A pending action's risk once the rule-based analyzers had their say, and why. */
export const PendingRisk = lazySchema(() =>
  z.strictObject({
    actionId: Id,
    risk: z.enum(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN']),
    reason: z.string().check(z.maxLength(LIMITS.riskReason)),
    /** The rules rated it this high themselves (`reason` is theirs), not only the model. */
    byRules: z.optional(z.boolean()),
  }),
);
export type PendingRisk = z.infer<typeof PendingRisk>;

/** A delegated agent, as its delegation card shows it (its steps come in 'childEvents'). */
export const ChildAgent = lazySchema(() =>
  z.strictObject({
    conversationId: Id,
    /** The conversation that delegated to it: the shown one, or the delegated agent it is nested under. */
    parentConversationId: z.optional(Id),
    /** The delegating action in the parent's log; null when the log does not name it. */
    parentEventId: z.nullable(Id),
    agentName: z.string().check(z.minLength(1), z.maxLength(LIMITS.kind)),
    branch: z.string().check(z.minLength(1), z.maxLength(LIMITS.kind)),
    task: z.string().check(z.maxLength(LIMITS.title)),
    /** What its definition asked for beyond its parent's grant and did not get. */
    narrowed: z.optional(
      z.array(z.string().check(z.maxLength(LIMITS.title))).check(z.maxLength(LIMITS.actionIds)),
    ),
    /** The model it runs on (absent in logs from before that was recorded). */
    model: z.optional(z.string().check(z.maxLength(LIMITS.title))),
    status: z.string().check(z.maxLength(LIMITS.status)),
    cost: Money,
    tokens: Count,
    /** Its actions waiting for Confirm / Reject (one batch), and their risks. */
    pendingActionIds: z.array(Id).check(z.maxLength(LIMITS.actionIds)),
    pendingRisks: z.array(PendingRisk).check(z.maxLength(LIMITS.actionIds)),
  }),
);
export type ChildAgent = z.infer<typeof ChildAgent>;

/** What the panel header shows; mirrors the backend's ConversationHeader. */
export const ConversationHeader = lazySchema(() =>
  z.strictObject({
    id: Id,
    title: z.string().check(z.maxLength(LIMITS.title)),
    status: z.string().check(z.maxLength(LIMITS.status)),
    promptTokens: Count,
    completionTokens: Count,
    cachedTokens: Count,
    /** Completion tokens a reasoning model spent thinking (absent from older hosts). */
    reasoningTokens: z.optional(Count),
    cost: Money,
    /** Ids of the ActionEvents waiting for Confirm / Reject: exactly one batch. */
    pendingActionIds: z.array(Id).check(z.maxLength(LIMITS.actionIds)),
    /** The effective risk of each pending action (the card shows it when it differs from the model's). */
    pendingRisks: z.optional(z.array(PendingRisk).check(z.maxLength(LIMITS.actionIds))),
    readOnly: z.boolean(),
    /** Read-only because another window writes it: that window, in words (absent otherwise). */
    heldBy: z.optional(z.string().check(z.maxLength(LIMITS.title))),
    /** Why it is read-only, for the composer to say (absent: not read-only, or no reason known). */
    readOnlyBecause: z.optional(z.enum(['another-window', 'task-discarded'])),
    /** The worktree task it runs (its own branch and worktree). */
    task: z.optional(
      z.strictObject({
        name: z.string().check(z.maxLength(LIMITS.title)),
        branch: z.string().check(z.maxLength(LIMITS.title)),
      }),
    ),
    /** The conversation's agent mode (absent: act). */
    mode: z.optional(AgentMode),
    /** In plan mode, the run ended with a plan that waits for Approve plan (derived from the log). */
    planAwaitsApproval: z.optional(z.boolean()),
    /** The model the next step will use, and where it runs (settings; Logbook: Select Model). */
    model: z.optional(
      z.strictObject({
        name: z.string().check(z.maxLength(LIMITS.title)),
        /** `acp`: an external agent of `logbook.acp.agents` answers instead of a model; `remote`: an agent-server. */
        provider: z.enum(['openai', 'vscode', 'acp', 'remote']),
      }),
    ),
    /** What verifying it found (on open, or Logbook: Verify Conversation); absent: not checked yet. */
    signature: z.optional(z.enum(['verified', 'broken', 'unsigned', 'truncated', 'unknown-signer'])),
    /** The did:keys that signed it, as the last check found them. */
    signers: z.optional(z.array(z.string().check(z.maxLength(LIMITS.id))).check(z.maxLength(LIMITS.signers))),
    /** The signers as the badge names them: "you", a name from the trust list, or "… (unknown signer)". */
    signerNames: z.optional(
      z.array(z.string().check(z.maxLength(LIMITS.title))).check(z.maxLength(LIMITS.signers)),
    ),
    /** What the last check said, in the words of logbook verify (the badge's tooltip). */
    signatureNote: z.optional(z.string().check(z.maxLength(LIMITS.title))),
    /** When broken: the first bad event, which the chat reveals and marks. */
    brokenAt: z.optional(
      z.strictObject({
        seq: Count,
        id: z.nullable(Id),
        reason: z.string().check(z.maxLength(LIMITS.status)),
      }),
    ),
    /** The agents it delegated to. */
    children: z.optional(z.array(ChildAgent).check(z.maxLength(LIMITS.children))),
  }),
);
export type ConversationHeader = z.infer<typeof ConversationHeader>;

/** Kept for the conversation service and tree, which list conversations by these three fields. */
export const ConversationSummary = lazySchema(() =>
  z.object({ id: z.string(), title: z.string(), status: z.string() }),
);
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** Transient model output while it answers: shown live, replaced by the real events, never persisted. */
export const StreamDelta = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('text'), text: z.string().check(z.maxLength(LIMITS.streamText)) }),
    z.strictObject({ type: z.literal('reasoning'), text: z.string().check(z.maxLength(LIMITS.streamText)) }),
    z.strictObject({
      type: z.literal('tool_call'),
      index: z.int().check(z.minimum(0), z.maximum(1_000)),
      name: z.optional(z.string().check(z.maxLength(LIMITS.kind))),
      argumentsDelta: z.string().check(z.maxLength(LIMITS.streamText)),
    }),
    z.strictObject({ type: z.literal('end') }),
    /** The attempt that streamed so far failed and is retried: drop what was shown of it. */
    z.strictObject({ type: z.literal('discard') }),
  ]),
);
export type StreamDelta = z.infer<typeof StreamDelta>;

/** One line of the mention completion list. */
export const MentionItem = lazySchema(() =>
  z.strictObject({
    kind: z.enum([
      'file',
      'folder',
      'selection',
      'problems',
      'terminal',
      'diff',
      'url',
      'resource',
      'prompt',
    ]),
    /** What the list and the chip show (a path, "Problems in src/a.ts", a URL...). */
    label: z.string().check(z.minLength(1), z.maxLength(LIMITS.path)),
    detail: z.optional(z.string().check(z.maxLength(LIMITS.title))),
    /** The file or folder (workspace-relative), the URL, or an MCP resource's URI; absent for the others. */
    path: z.optional(Path),
    /** The MCP server of a resource. */
    server: z.optional(z.string().check(z.minLength(1), z.maxLength(LIMITS.kind))),
  }),
);
export type MentionItem = z.infer<typeof MentionItem>;

/** One file the conversation changed from its first checkpoint to a point of its timeline. */
export const TimelineFile = lazySchema(() =>
  z.strictObject({
    path: Path,
    /** A added, M modified, D deleted, R renamed (from `from`), T type changed. */
    status: z.enum(['A', 'M', 'D', 'R', 'T']),
    from: z.optional(Path),
  }),
);
export type TimelineFile = z.infer<typeof TimelineFile>;

/** The conversation as it was right after one event: what the timeline shows (computed by the host). */
export const TimelinePoint = lazySchema(() =>
  z.strictObject({
    seq: Count,
    eventId: Id,
    timestamp: z.string().check(z.maxLength(LIMITS.status)),
    /** The log's last seq when the point was computed (the slider's end). */
    lastSeq: Count,
    status: z.string().check(z.maxLength(LIMITS.status)),
    mode: AgentMode,
    promptTokens: Count,
    completionTokens: Count,
    cost: Money,
    plan: z
      .array(
        z.strictObject({
          title: z.string().check(z.maxLength(LIMITS.planTitle)),
          status: z.string().check(z.maxLength(LIMITS.status)),
        }),
      )
      .check(z.maxLength(LIMITS.planItems)),
    files: z.array(TimelineFile).check(z.maxLength(LIMITS.timelineFiles)),
    /** Changed files beyond `files` (not listed). */
    filesNotShown: Count,
    /** Where the files at this point come from, in words. */
    filesNote: z.string().check(z.maxLength(LIMITS.title)),
  }),
);
export type TimelinePoint = z.infer<typeof TimelinePoint>;

/** What "Logbook: Replay Conversation" found, for the chat's card. */
export const ReplayReport = lazySchema(() =>
  z.discriminatedUnion('outcome', [
    z.strictObject({ outcome: z.literal('same'), actions: Count }),
    z.strictObject({
      outcome: z.literal('diverged'),
      actions: Count,
      /** Index of the event in the recording, its id (to find it in the timeline) and the call's position. */
      index: Count,
      /** Where that event is in the log (the timeline's position), when known. */
      seq: z.optional(Count),
      eventId: z.optional(Id),
      ordinal: Count,
      tool: z.string().check(z.maxLength(LIMITS.kind)),
      what: z.string().check(z.maxLength(LIMITS.title)),
      recorded: z.string().check(z.maxLength(LIMITS.replayText)),
      /** Absent: the replay stopped before it got a result. */
      replayed: z.optional(z.string().check(z.maxLength(LIMITS.replayText))),
      diff: z.array(z.string().check(z.maxLength(LIMITS.title))).check(z.maxLength(LIMITS.replayDiffLines)),
      /** How the replay ended (running, finished, error...). */
      status: z.string().check(z.maxLength(LIMITS.status)),
      /** A delegated agent's branch (`main.explore.1`): the index is in its own log. Absent: the conversation's. */
      branch: z.optional(z.string().check(z.maxLength(LIMITS.kind))),
    }),
    z.strictObject({
      outcome: z.literal('error-end'),
      actions: Count,
      recordedEnd: z.string().check(z.maxLength(LIMITS.status)),
    }),
    z.strictObject({ outcome: z.literal('failed'), message: z.string().check(z.maxLength(LIMITS.title)) }),
  ]),
);
export type ReplayReport = z.infer<typeof ReplayReport>;

/** Extension → webview. */
export const HostMessage = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** The conversation shown changed (or null: the empty state); a different id drops the view's events. */
    z.strictObject({
      type: z.literal('conversation'),
      header: z.nullable(ConversationHeader),
      /** The mode a new conversation starts in (logbook.agent.defaultMode), for the composer's toggle. */
      defaultMode: z.optional(AgentMode),
      /** The demo model answers (no real one is connected): the tasks it has a script for. */
      demoTasks: z.optional(
        z.array(z.string().check(z.minLength(1), z.maxLength(LIMITS.title))).check(z.maxLength(5)),
      ),
    }),
    /** Status, tokens, cost or the pending batch of the shown conversation changed. */
    z.strictObject({ type: z.literal('header'), header: ConversationHeader }),
    /** New events only (seq > the last one sent); the initial sync comes in several of these. */
    z.strictObject({
      type: z.literal('events'),
      conversationId: Id,
      events: z.array(ViewEvent).check(z.maxLength(LIMITS.eventsPerMessage)),
    }),
    /** Events of a delegated agent of the shown conversation (new ones, or all of them once). */
    z.strictObject({
      type: z.literal('childEvents'),
      conversationId: Id,
      childId: Id,
      events: z.array(ViewEvent).check(z.maxLength(LIMITS.eventsPerMessage)),
    }),
    /** Show a delegated agent's card: open the chain of cards down to it (top first), scroll to it, focus it. */
    z.strictObject({
      type: z.literal('revealChild'),
      conversationId: Id,
      childIds: z.array(Id).check(z.minLength(1), z.maxLength(LIMITS.children)),
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
      events: z.array(ViewEvent).check(z.maxLength(LIMITS.eventsPerMessage)),
    }),
    /** Answer to 'mentionQuery' (only the newest request's answer is shown). */
    z.strictObject({
      type: z.literal('mentionResults'),
      requestId: Count,
      items: z.array(MentionItem).check(z.maxLength(LIMITS.mentionItems)),
    }),
    /** Answer to 'loadImage': the stored image as a data URL, or null when it cannot be read. */
    z.strictObject({
      type: z.literal('image'),
      url: z.string().check(z.maxLength(LIMITS.url)),
      dataUrl: z.nullable(
        z
          .string()
          .check(z.maxLength(LIMITS.imageBase64 + 100), z.regex(/^data:image\/(png|jpeg|webp|gif);base64,/)),
      ),
    }),
    /** Answer to 'timelineSeek' (only the newest request's answer is shown); `error` in words. */
    z.strictObject({
      type: z.literal('timelinePoint'),
      conversationId: Id,
      requestId: Count,
      point: z.nullable(TimelinePoint),
      error: z.optional(z.string().check(z.maxLength(LIMITS.title))),
    }),
    /** A replay of the conversation started (`report` absent) or ended. */
    z.strictObject({ type: z.literal('replay'), conversationId: Id, report: z.optional(ReplayReport) }),
  ]),
);
export type HostMessage = z.infer<typeof HostMessage>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Error text kept short: it goes to a log line and must not echo a huge hostile payload. */
function parseWith<T>(schema: z.ZodMiniType<T>, raw: unknown): Parsed<T> {
  let type: string = typeof raw;
  try {
    if (typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string')
      type = String((raw as { type: string }).type).slice(0, 40);
    const r = schema.safeParse(raw);
    if (r.success) return { ok: true, value: r.data };
    return { ok: false, error: `(${type}) ${z.prettifyError(r.error).slice(0, 500)}` };
  } catch (err) {
    // Only a value no message can carry (a throwing getter, a proxy) gets here: refused all the same.
    return { ok: false, error: `(${type}) unreadable: ${String(err).slice(0, 200)}` };
  }
}

export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith(WebviewMessage, raw);
}

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith(HostMessage, raw);
}
