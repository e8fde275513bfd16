// Small builders for observation payloads, so every tool fills `content` and `is_error` alike.
import type { ToolObservation } from './tool';

export function observation(
  kind: string,
  text: string,
  fields: Record<string, unknown> = {},
  isError = false,
): ToolObservation {
  return { kind, content: [{ type: 'text', text }], is_error: isError, ...fields };
}

export function errorObservation(kind: string, text: string, fields: Record<string, unknown> = {}) {
  return observation(kind, text, fields, true);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
