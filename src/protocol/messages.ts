// Every message between the webview and the extension, declared once with zod and validated on
// both sides. Invalid messages are dropped and logged, never acted on.
import { z } from 'zod';

/** A log event as the view receives it: its sequence number in the conversation plus the JSON. */
export const ViewEvent = z.object({
  seq: z.number().int().nonnegative(),
  event: z.looseObject({ kind: z.string() }),
});
export type ViewEvent = z.infer<typeof ViewEvent>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  status: z.string(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** Extension → webview. */
export const HostMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('conversation'),
    conversation: ConversationSummary.nullable(),
  }),
  z.object({
    type: z.literal('events'),
    conversationId: z.string(),
    events: z.array(ViewEvent),
  }),
  z.object({ type: z.literal('status'), conversationId: z.string(), status: z.string() }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

/** Webview → extension. */
export const WebviewMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    conversationId: z.string().nullable(),
    lastSeq: z.number().int().min(-1),
  }),
  z.object({ type: z.literal('sendMessage'), text: z.string().min(1).max(100_000) }),
  z.object({ type: z.literal('startTask') }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessage>;

export function parseWebviewMessage(raw: unknown): WebviewMessage | { error: string } {
  const r = WebviewMessage.safeParse(raw);
  return r.success ? r.data : { error: z.prettifyError(r.error) };
}

export function parseHostMessage(raw: unknown): HostMessage | { error: string } {
  const r = HostMessage.safeParse(raw);
  return r.success ? r.data : { error: z.prettifyError(r.error) };
}
