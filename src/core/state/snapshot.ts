/**
 * State snapshots as JSON text. A snapshot is only a cache of `deriveState`: when it does not
 * decode (other version, damaged, written by an older reducer) it is ignored and the state is
 * replayed from the events, never trusted half-way.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { SandboxNoticeSchema } from './sandbox-notice';
import { ShellNoticeSchema } from './shell-notice';
import { SecurityRiskSchema } from '../events';
import type { ConversationState } from './conversation-state';
import { ToolRatingsSchema } from './reducer';
import { EXECUTION_STATUSES } from './transitions';

/**
 * Bump when the reducer's output for the same events changes (new field, new rule): snapshots of
 * the previous version then stop being used instead of showing a state today's code would not give.
 */
export const SNAPSHOT_VERSION = 3;

const n = lazySchema(() => z.number());
const TotalsShape = {
  promptTokens: n,
  completionTokens: n,
  cachedTokens: n,
  cacheWriteTokens: n,
  reasoningTokens: n,
  cost: n,
  calls: n,
};
const TaskSchema = lazySchema(() => z.object({ title: z.string(), notes: z.string(), status: z.string() }));
const JsonSchema: z.ZodType<unknown> = lazySchema(() => z.json());

export const ConversationStateSchema = lazySchema(() =>
  z.object({
    id: z.string().nullable(),
    status: z.enum(EXECUTION_STATUSES),
    iteration: n,
    iterationsThisRun: n,
    metrics: z.object({
      byUsage: z.record(
        z.string(),
        z.object({
          usageId: z.string(),
          model: z.string().nullable(),
          ...TotalsShape,
          latency: z.object({ count: n, totalMs: n, maxMs: n, recentMs: z.array(n) }),
        }),
      ),
      total: z.object(TotalsShape),
    }),
    tasks: z.array(TaskSchema),
    activatedSkills: z.array(z.string()),
    pendingActions: z.array(
      z.object({
        actionId: z.string(),
        toolCallId: z.string(),
        toolName: z.string(),
        llmResponseId: z.string(),
        plannedTasks: z.array(TaskSchema).nullable(),
      }),
    ),
    pendingBatchIds: z.array(z.string()),
    inDoubt: z.array(z.string()),
    approved: z.array(z.string()),
    approvedRisks: z.record(z.string(), SecurityRiskSchema),
    costUnknownModels: z.array(z.string()).default([]),
    checkpointsUnavailable: z.boolean().default(false),
    mode: z.enum(['plan', 'act']).default('act'),
    sandbox: SandboxNoticeSchema.nullable().default(null),
    shell: ShellNoticeSchema.nullable().default(null),
    shellCwd: z.string().nullable().default(null),
    toolsOfferedSha: z.string().nullable().default(null),
    toolRatings: ToolRatingsSchema.default({}),
    lastUserMessageId: z.string().nullable(),
    lastError: z.object({ eventId: z.string(), kind: z.string(), message: z.string() }).nullable(),
    title: z.string().nullable(),
    eventCount: n,
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    head: z.string().nullable(),
    confirmationPolicy: JsonSchema,
    condensations: n,
    warnings: z.array(z.string()),
    recentResponseIds: z.array(z.string()),
    // Unknown (null) in a snapshot written before agents' events were counted.
    agentEvents: n.nullable().default(null),
  }),
);

// Compile-time guard: the schema and the interface must describe the same object.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _schemaMatchesState: Same<
  Omit<z.output<typeof ConversationStateSchema>, 'confirmationPolicy'>,
  Omit<ConversationState, 'confirmationPolicy'>
> = true;
void _schemaMatchesState;

/**
 * `resume` is what a runtime needs besides the state to carry on from this point without reading
 * the events before it (the Conversation's prompt view); the state layer keeps it opaque.
 */
export function encodeSnapshot<R>(
  state: ConversationState,
  resume?: R extends PromiseLike<unknown> ? never : R,
): string {
  // A promise would be written as `{}`: a snapshot that looks valid and that no open can use.
  if (typeof (resume as { then?: unknown } | undefined)?.then === 'function') {
    throw new TypeError('a snapshot is given the resume data, not a promise of it');
  }
  return JSON.stringify(
    resume === undefined ? { v: SNAPSHOT_VERSION, state } : { v: SNAPSHOT_VERSION, state, resume },
  );
}

/** The state in a snapshot, or null when it is not a valid snapshot of this version. */
export function decodeSnapshot(json: string): ConversationState | null {
  return decodeSnapshotEnvelope(json)?.state ?? null;
}

/** The state and the opaque `resume` value of a snapshot, or null when it is not a valid one. */
export function decodeSnapshotEnvelope(json: string): { state: ConversationState; resume: unknown } | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const envelope = z
    .object({
      v: z.literal(SNAPSHOT_VERSION),
      state: ConversationStateSchema,
      resume: z.unknown().optional(),
    })
    .safeParse(value);
  return envelope.success
    ? { state: envelope.data.state as ConversationState, resume: envelope.data.resume }
    : null;
}
