// Arguments of a tool described by a JSON schema from outside. The server checks its own input, so
// this only catches the slips worth telling the model about before a call: a missing required
// property, a top-level value of the wrong type, a value outside an enum. Anything the check does
// not understand passes; it must never refuse a call the server would take.
import { z } from 'zod';

type Json = Record<string, unknown>;

export function argumentsSchema(schema: Json): z.ZodType<Record<string, unknown>> {
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  return z.record(z.string(), z.unknown()).superRefine((args, ctx) => {
    for (const name of required)
      if (!(name in args)) ctx.addIssue({ code: 'custom', path: [name], message: 'required' });
    for (const [name, value] of Object.entries(args)) {
      const prop = properties[name];
      if (!isObject(prop)) continue;
      const problem = mismatch(prop, value);
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
    }
  });
}

function mismatch(prop: Json, value: unknown): string | undefined {
  if (Array.isArray(prop.enum) && prop.enum.length > 0 && !prop.enum.some((e) => e === value))
    return `must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  const types = typeof prop.type === 'string' ? [prop.type] : Array.isArray(prop.type) ? prop.type : [];
  if (types.length === 0 || types.some((t) => matches(t, value))) return undefined;
  return `expected ${types.join(' or ')}`;
}

function matches(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'null':
      return value === null;
    default:
      return true; // a type this check does not know: the server decides
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
