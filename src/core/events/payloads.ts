/**
 * Action and observation payloads: open objects tagged with a nested `kind` (e.g. `TerminalAction`).
 * The events module does not know tools: the event schemas check only this open shape. A tool's own
 * payload schemas are a value built from a tool list (`payloadSchemasOf` in core/tools) and handed to
 * whatever parses or creates events for that conversation, so two conversations with different tool
 * sets never see each other's schemas. They only validate: the stored payload stays as written.
 */
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { ContentSchema, textOf } from './content';
import type { DeepReadonly } from './freeze';

/** The schemas that validate payloads, by payload kind; a kind without one is open. */
export interface PayloadSchemas {
  readonly actions: ReadonlyMap<string, z.ZodType>;
  readonly observations: ReadonlyMap<string, z.ZodType>;
}

export const ActionPayloadSchema = lazySchema(() => z.looseObject({ kind: z.string().min(1) }));
export type ActionPayload = DeepReadonly<z.infer<typeof ActionPayloadSchema>>;

export const ObservationPayloadSchema = lazySchema(() =>
  z.looseObject({
    kind: z.string().min(1),
    // What the LLM sees (OpenHands Observation.content); optional because a tool may render differently.
    content: z.array(ContentSchema).optional(),
    is_error: z.boolean().optional(),
  }),
);
export type ObservationPayload = DeepReadonly<z.infer<typeof ObservationPayloadSchema>>;

/**
 * What is wrong with an event's action or observation payload by these schemas (paths from the
 * event's root); none for other events, a null action, or a kind without a schema.
 */
export function payloadIssues(
  record: Readonly<Record<string, unknown>>,
  schemas: PayloadSchemas,
): { path: (string | number)[]; message: string }[] {
  const field =
    record.kind === 'ActionEvent' ? 'action' : record.kind === 'ObservationEvent' ? 'observation' : undefined;
  const payload = field ? (record[field] as { kind?: unknown } | null | undefined) : undefined;
  if (!field || !payload || typeof payload.kind !== 'string') return [];
  const schema = (field === 'action' ? schemas.actions : schemas.observations).get(payload.kind);
  const result = schema?.safeParse(payload);
  if (!result || result.success) return [];
  return result.error.issues.map((i) => ({
    path: [field, ...(i.path as (string | number)[])],
    message: i.message,
  }));
}

/** Prefix that tells the model the tool failed, whatever the text says. */
export const TOOL_ERROR_PREFIX = '[The tool reported an error.]\n';

/**
 * The text an observation shows the LLM: its text content, flagged when `is_error`.
 * Tool messages in Chat Completions carry text only, so image parts are not rendered here.
 */
export function observationText(observation: ObservationPayload): string {
  const body = textOf(observation.content);
  return observation.is_error ? TOOL_ERROR_PREFIX + body : body;
}
