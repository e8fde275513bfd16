/**
 * Action and observation payloads: open objects tagged with a nested `kind` (e.g. `TerminalAction`).
 * The events module does not know tools; tools register their own zod schemas here and every
 * ActionEvent/ObservationEvent parsed afterwards is checked against the schema of its payload kind.
 * Registered schemas only validate: the stored payload stays exactly as written, so it round-trips.
 */
import { z } from 'zod';
import { ContentSchema, textOf } from './content';
import type { DeepReadonly } from './freeze';

type AnySchema = z.ZodType;
const actionSchemas = new Map<string, AnySchema>();
const observationSchemas = new Map<string, AnySchema>();

/** Registers (or replaces) the schema that validates action payloads of `kind`. */
export function registerActionSchema(kind: string, schema: AnySchema): void {
  actionSchemas.set(kind, schema);
}

/** Registers (or replaces) the schema that validates observation payloads of `kind`. */
export function registerObservationSchema(kind: string, schema: AnySchema): void {
  observationSchemas.set(kind, schema);
}

/** Removes a registration; returns whether one existed (mainly for tests). */
export function unregisterPayloadSchema(which: 'action' | 'observation', kind: string): boolean {
  return (which === 'action' ? actionSchemas : observationSchemas).delete(kind);
}

/**
 * Test support: saves both registries and returns a function that puts back exactly that state, so a
 * test can (un)register schemas without leaking them into tests that run later in the same process.
 */
export function savePayloadSchemas(): () => void {
  const saved: [Map<string, AnySchema>, Map<string, AnySchema>][] = [
    [actionSchemas, new Map(actionSchemas)],
    [observationSchemas, new Map(observationSchemas)],
  ];
  return () => {
    for (const [live, copy] of saved) {
      live.clear();
      for (const [kind, schema] of copy) live.set(kind, schema);
    }
  };
}

function checkRegistered(registry: Map<string, AnySchema>) {
  return (value: { kind: string }, ctx: z.core.$RefinementCtx) => {
    const schema = registry.get(value.kind);
    if (!schema) return;
    const result = schema.safeParse(value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: [...issue.path] });
    }
  };
}

export const ActionPayloadSchema = z
  .looseObject({ kind: z.string().min(1) })
  .superRefine(checkRegistered(actionSchemas));
export type ActionPayload = DeepReadonly<z.infer<typeof ActionPayloadSchema>>;

export const ObservationPayloadSchema = z
  .looseObject({
    kind: z.string().min(1),
    // What the LLM sees (OpenHands Observation.content); optional because a tool may render differently.
    content: z.array(ContentSchema).optional(),
    is_error: z.boolean().optional(),
  })
  .superRefine(checkRegistered(observationSchemas));
export type ObservationPayload = DeepReadonly<z.infer<typeof ObservationPayloadSchema>>;

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
