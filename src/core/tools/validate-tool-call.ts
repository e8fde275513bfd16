// From the model's raw tool call (name + argument text) to a validated action, or to an error
// message the agent sends back to the model (as an AgentErrorEvent answering that call).
import type { z } from 'zod';
import type { SecurityRisk } from '../events';
import type { ToolSpec } from './tool';
import { parametersOf } from './tool-definition';
import { normaliseSecurityRisk, normaliseSummary, SECURITY_ARG_NAMES } from './security-args';

export interface ValidToolCall {
  ok: true;
  spec: ToolSpec;
  /** Arguments as the executor takes them (defaults applied, security_risk/summary removed). */
  args: Record<string, unknown>;
  /** Payload for ActionEvent.action: the action fields, then `kind`. */
  action: Record<string, unknown> & { kind: string };
  /** The model's own rating; UNKNOWN when missing, unusable, or the tool is read-only. */
  security_risk: SecurityRisk;
  summary: string | null;
}

export interface InvalidToolCall {
  ok: false;
  error: string;
}

export type ToolCallValidation = ValidToolCall | InvalidToolCall;

export function validateToolCall(
  tools: readonly ToolSpec[],
  name: string,
  argumentsJson: string,
): ToolCallValidation {
  const spec = tools.find((t) => t.name === name);
  if (!spec) {
    const available = tools.map((t) => t.name).join(', ') || '(none)';
    return { ok: false, error: `Tool "${name}" does not exist. Available tools: ${available}.` };
  }

  const raw = parseArguments(argumentsJson);
  if (!raw.ok) return { ok: false, error: `Invalid arguments for tool "${name}": ${raw.error}` };

  const input = coerceLooseValues(raw.value, parametersOf(spec));
  const security_risk = spec.readOnly ? 'UNKNOWN' : normaliseSecurityRisk(input.security_risk);
  const summary = normaliseSummary(input.summary);
  for (const key of SECURITY_ARG_NAMES) delete input[key];

  const parsed = spec.argsSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      error: `Invalid arguments for tool "${name}":\n${formatIssues(parsed.error.issues)}`,
    };
  }
  const args = parsed.data as Record<string, unknown>;
  const fields = spec.toActionFields ? spec.toActionFields(args) : { ...args };
  return { ok: true, spec, args, action: { ...fields, kind: spec.actionKind }, security_risk, summary };
}

function parseArguments(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Some models send "" for a call without arguments.
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `the arguments are not valid JSON (${(err as Error).message}).` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the arguments must be a JSON object.' };
  }
  return { ok: true, value: { ...(value as Record<string, unknown>) } };
}

/**
 * Forgives the usual slips of smaller models at the top level: null for an unused optional field,
 * numbers and booleans sent as strings, arrays or objects sent as JSON text.
 */
function coerceLooseValues(
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === null) continue;
    const type = properties[key]?.type;
    out[key] = typeof value === 'string' ? coerceString(value, type) : value;
  }
  return out;
}

function coerceString(value: string, type: unknown): unknown {
  const text = value.trim();
  if ((type === 'integer' || type === 'number') && text !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if ((type === 'array' && text.startsWith('[')) || (type === 'object' && text.startsWith('{'))) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return value;
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `- ${fieldName(issue.path)}: ${describeIssue(issue)}`).join('\n');
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(arguments)';
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `required (${issue.expected})`;
  return issue.message;
}
