// Turns a ToolSpec into the Chat Completions `tools` entry. The JSON schema comes from the zod
// schema, tidied so small models read it easily, with security_risk/summary required for tools
// that are not read-only (validation still tolerates them missing).
import { z } from 'zod';
import type { ToolDefinition } from '../llm/types';
import type { ToolSpec } from './tool';
import { SECURITY_ARG_NAMES, securityArgsShape } from './security-args';

type JsonObject = Record<string, unknown>;

export function toolDefinition(spec: ToolSpec): ToolDefinition {
  return {
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: parametersOf(spec) },
  };
}

/**
 * Each spec's schema as JSON text: converting a zod schema is the costly part of a request's tool
 * list, and the same specs serve every step of a run. A fresh copy is parsed for each caller.
 */
const schemaTexts = new WeakMap<ToolSpec, string>();

/** The JSON schema of a tool's arguments, as sent to the model. */
export function parametersOf(spec: ToolSpec): JsonObject {
  let text = schemaTexts.get(spec);
  if (text === undefined) {
    text = spec.parametersJson ?? JSON.stringify(derivedParameters(spec));
    schemaTexts.set(spec, text);
  }
  return JSON.parse(text) as JsonObject;
}

/** The parameters' JSON schema derived from the spec's zod schema, whatever `parametersJson` says. */
export function derivedParameters(spec: ToolSpec): JsonObject {
  const schema = spec.jsonSchema
    ? withSecurityArgs(spec)
    : (tidy(z.toJSONSchema(spec.argsSchema, { io: 'input', unrepresentable: 'any' })) as JsonObject);
  delete schema.$schema;
  if (!spec.readOnly) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties = (schema.properties ?? {}) as JsonObject;
    for (const name of SECURITY_ARG_NAMES) if (name in properties) required.add(name);
    schema.required = [...required];
  }
  return schema;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** Removes noise zod adds (±2^53 integer bounds) that only costs the model tokens. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node as JsonObject)) {
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    out[key] = tidy(value);
  }
  return out;
}

/**
 * A schema from outside, with the model's risk rating and summary added as optional properties
 * when the tool has side effects (they are taken off before the call reaches the tool).
 */
function withSecurityArgs(spec: ToolSpec): JsonObject {
  const schema: JsonObject = { type: 'object', ...spec.jsonSchema };
  if (spec.readOnly) return schema;
  const own = (schema.properties ?? {}) as JsonObject;
  const added = z.toJSONSchema(z.object(securityArgsShape()), { io: 'input' }) as JsonObject;
  schema.properties = { ...(added.properties as JsonObject), ...own };
  return schema;
}
