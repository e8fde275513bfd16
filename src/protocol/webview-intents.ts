// Webview → extension: every intent the chat can send, with its bounds. Apart from messages.ts (the
// extension's side) because the host's handlers are written against this list, one method per intent.
import * as z from 'zod/mini';
import { lazySchema } from '../core/schema/lazy-schema';
import { AgentMode, Count, Id, LIMITS, Path } from './basics';

/** One step of a plan as the user approves it (possibly edited in the chat). */
export const PlanItem = lazySchema(() =>
  z.strictObject({
    title: z.string().check(z.minLength(1), z.maxLength(LIMITS.planTitle)),
    notes: z.string().check(z.maxLength(LIMITS.planNotes)),
    /** As the plan said (a step done while planning stays done); absent: to do. */
    status: z.optional(z.enum(['todo', 'in_progress', 'done'])),
  }),
);
export type PlanItem = z.infer<typeof PlanItem>;

/**
 * Something the user attached to a message; the host reads it when the message is sent. A path is
 * relative to the workspace (from completion) or a URI (a file dropped from the explorer).
 */
export const Attachment = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('file'), path: Path }),
    z.strictObject({ kind: z.literal('folder'), path: Path }),
    z.strictObject({ kind: z.literal('selection') }),
    /** Problems of one file, or of the whole workspace without a path. */
    z.strictObject({ kind: z.literal('problems'), path: z.optional(Path) }),
    /** The last command's output in a terminal (shell integration). */
    z.strictObject({ kind: z.literal('terminal') }),
    /** The working tree's changes against HEAD. */
    z.strictObject({ kind: z.literal('diff') }),
    /** A prompt of a running MCP server (one without required arguments), got when the message is sent. */
    z.strictObject({
      kind: z.literal('prompt'),
      server: z.string().check(z.minLength(1), z.maxLength(LIMITS.kind)),
      name: z.string().check(z.minLength(1), z.maxLength(LIMITS.kind)),
    }),
    /** A resource of a running MCP server, read when the message is sent. */
    z.strictObject({
      kind: z.literal('resource'),
      server: z.string().check(z.minLength(1), z.maxLength(LIMITS.kind)),
      uri: z.string().check(z.minLength(1), z.maxLength(LIMITS.url)),
    }),
    /** A web page's text: fetched only after the user confirms it on the host. */
    z.strictObject({
      kind: z.literal('url'),
      url: z.string().check(z.maxLength(LIMITS.url), z.regex(/^https?:\/\/[^\s]+$/, 'an http(s) URL')),
    }),
    /** A pasted or dropped image: its bytes, base64 (the host checks what they are). */
    z.strictObject({
      kind: z.literal('image'),
      data: z
        .string()
        .check(z.minLength(1), z.maxLength(LIMITS.imageBase64), z.regex(/^[A-Za-z0-9+/]+=*$/, 'base64')),
      name: z.optional(z.string().check(z.maxLength(300))),
    }),
  ]),
);
export type Attachment = z.infer<typeof Attachment>;

const inConversation = { conversationId: Id };

/** The settings the chat may open, for the error card of a failed model call. */
export const LLM_SETTING_IDS = [
  'logbook.model',
  'logbook.model.baseURL',
  'logbook.model.name',
  'logbook.model.replyTimeoutSeconds',
  'logbook.model.maxReplyBytes',
] as const;
export type LlmSettingId = (typeof LLM_SETTING_IDS)[number];

/** Webview → extension: the user's intents, plus `ready` (which asks for a resync). */
export const WebviewMessage = lazySchema(() =>
  z.discriminatedUnion('type', [
    /** Sent on every load: the conversation and last seq the view already holds (-1: none). */
    z.strictObject({
      type: z.literal('ready'),
      conversationId: z.nullable(Id),
      lastSeq: z.int().check(z.minimum(-1)),
    }),
    z.strictObject({
      type: z.literal('sendMessage'),
      text: z.string().check(z.minLength(1), z.maxLength(LIMITS.messageText)),
      attachActiveFile: z.boolean(),
      attachSelection: z.boolean(),
      /** The composer's Plan/Act choice; the conversation switches to it before the message. */
      mode: z.optional(AgentMode),
      /** Mentions, dropped files and pasted images, resolved by the host when it records the message. */
      attachments: z.optional(
        z.array(Attachment).check(
          z.maxLength(LIMITS.attachments),
          z.refine((a) => a.filter((x) => x.kind === 'image').length <= LIMITS.images, 'too many images'),
        ),
      ),
    }),
    /** Completion for "@" / "#" in the message box: what matches `query` (debounced by the view). */
    z.strictObject({
      type: z.literal('mentionQuery'),
      requestId: Count,
      query: z.string().check(z.maxLength(LIMITS.mentionQuery)),
      /** A "/" that starts the message: the MCP servers' prompts are asked for, nothing else. */
      prompts: z.optional(z.literal(true)),
    }),
    /** Asks for a stored image of the shown conversation, for its thumbnail. */
    z.strictObject({
      type: z.literal('loadImage'),
      ...inConversation,
      url: z.string().check(z.maxLength(LIMITS.url)),
    }),
    z.strictObject({ type: z.literal('startTask') }),
    z.strictObject({
      type: z.literal('approve'),
      ...inConversation,
      actionIds: z.array(Id).check(z.minLength(1), z.maxLength(LIMITS.actionIds)),
    }),
    z.strictObject({
      type: z.literal('reject'),
      ...inConversation,
      actionIds: z.array(Id).check(z.minLength(1), z.maxLength(LIMITS.actionIds)),
      reason: z.string().check(z.maxLength(LIMITS.rejectReason)),
    }),
    z.strictObject({
      type: z.literal('alwaysAllow'),
      ...inConversation,
      actionId: Id,
      commandPrefix: z.string().check(
        z.maxLength(LIMITS.commandPrefix),
        z.refine((s) => s.trim().length > 0, 'empty command prefix'),
      ),
    }),
    /** The composer's Plan/Act toggle on the shown conversation. */
    z.strictObject({ type: z.literal('setMode'), ...inConversation, mode: AgentMode }),
    /** "Approve plan": act mode, and the plan (as shown, maybe edited) as the next message. */
    z.strictObject({
      type: z.literal('approvePlan'),
      ...inConversation,
      tasks: z.array(PlanItem).check(z.minLength(1), z.maxLength(LIMITS.planItems)),
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
    /** The model name in the header: runs Logbook: Select Model. */
    z.strictObject({ type: z.literal('selectModel') }),
    /** "Show Sandbox Status" on the notice that commands run without a sandbox. */
    z.strictObject({ type: z.literal('showSandboxStatus') }),
    /** Asks for the events before `beforeSeq` (the first one the view holds). */
    z.strictObject({ type: z.literal('loadEarlier'), ...inConversation, beforeSeq: Count }),
    /** The timeline moved to the event at `seq`: the host answers with 'timelinePoint'. */
    z.strictObject({ type: z.literal('timelineSeek'), ...inConversation, requestId: Count, seq: Count }),
    /** A changed file of a timeline point in a diff editor: start to the point, or the point to now. */
    z.strictObject({
      type: z.literal('timelineDiff'),
      ...inConversation,
      seq: Count,
      path: Path,
      against: z.enum(['start', 'now']),
    }),
    /** "Open files at this point": the point's versions of its changed files, read-only. */
    z.strictObject({ type: z.literal('timelineOpenFiles'), ...inConversation, seq: Count }),
  ]),
);
export type WebviewMessage = z.infer<typeof WebviewMessage>;
export type WebviewMessageType = WebviewMessage['type'];
