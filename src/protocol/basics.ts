// The bounds and smallest shapes both directions of the chat protocol share, and zod/mini's English
// messages: kept apart so the webview's intents (webview-intents.ts) and the host's messages
// (messages.ts) can each build on them without importing one another.
import * as z from 'zod/mini';
import { lazySchema } from '../core/schema/lazy-schema';

// zod/mini comes without error messages: without them a refused message would only say "Invalid
// input". English ones are set where zod is loaded (src/shared-zod.ts for the extension and the
// CLI, webview-ui/src/zod-config.ts for the webview), not here: a module the extension loads at
// activation calls no zod at top level, so a window that parses nothing yet never loads zod.

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
  planItems: 100,
  planTitle: 500,
  planNotes: 5_000,
  /** Attachments (mentions, dropped files, pasted images) on one message. */
  attachments: 20,
  images: 4,
  /** Base64 of the largest image (5 MiB), with room for padding. */
  imageBase64: 7_000_000,
  mentionQuery: 500,
  mentionItems: 50,
  path: 4_096,
  url: 2_048,
  signers: 64,
  /** Files a timeline point lists (the rest are counted). */
  timelineFiles: 200,
  /** Lines of each result a replay's divergence card shows. */
  replayText: 4_000,
  replayDiffLines: 40,
  /** Delegated agents a header lists. */
  children: 64,
} as const;

export const Id = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(LIMITS.id)));
export const Count = lazySchema(() => z.int().check(z.nonnegative()));
export const Money = lazySchema(() => z.number().check(z.nonnegative(), z.maximum(1e12)));
export const Path = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(LIMITS.path)));
/** plan: the agent only reads and answers with a plan; act: it may change things. */
export const AgentMode = lazySchema(() => z.enum(['plan', 'act']));
export type AgentMode = z.infer<typeof AgentMode>;
