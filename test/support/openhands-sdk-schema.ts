// Validates OpenHands SDK conversation folders against the SDK's own JSON schemas
// (test/fixtures/openhands/sdk-v1.43, generated from the SDK's pydantic models). ajv runs them as
// they are: `discriminator` with the SDK's mapping and pydantic's extra keywords are not standard
// JSON Schema, so strict mode is off (the `oneOf` beside each discriminator does the choosing).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

export const SDK_SCHEMAS = join(__dirname, '..', 'fixtures', 'openhands', 'sdk-v1.43');

const EVENT_ID = 'openhands-sdk-event';
const BASE_STATE_ID = 'openhands-sdk-base-state';

let ajv: Ajv | undefined;

function schemas(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: false });
  // Formats the schemas name; `password` and `path` are pydantic's and constrain nothing.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
  ajv.addFormat('password', true);
  ajv.addFormat('path', true);
  const read = (name: string) => JSON.parse(readFileSync(join(SDK_SCHEMAS, name), 'utf8')) as object;
  ajv.addSchema({ ...read('event.schema.json'), $id: EVENT_ID });
  ajv.addSchema({ ...read('base-state.schema.json'), $id: BASE_STATE_ID });
  return ajv;
}

const byKind = new Map<string, ValidateFunction>();

/** The validator of one event kind (its own `$defs` entry: errors name its fields, not the union's). */
function eventValidator(kind: unknown): ValidateFunction {
  const a = schemas();
  if (typeof kind !== 'string' || !/^\w+$/.test(kind)) return a.getSchema(EVENT_ID)!;
  let v = byKind.get(kind);
  if (!v) {
    v = a.getSchema(`${EVENT_ID}#/$defs/${kind}`) ?? a.getSchema(EVENT_ID)!;
    byKind.set(kind, v);
  }
  return v;
}

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${paramsOf(e)}`)
    .join('; ');
}

function paramsOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (typeof p.additionalProperty === 'string') return ` (${p.additionalProperty})`;
  return '';
}

/** Why `event` is not a valid SDK event, or null when it is (checked against the whole union too). */
export function sdkEventError(event: unknown): string | null {
  const kind = (event as { kind?: unknown } | null)?.kind;
  const own = eventValidator(kind);
  if (!own(event)) return payloadError(event) ?? describe(own.errors);
  const union = schemas().getSchema(EVENT_ID)!;
  return union(event) ? null : describe(union.errors);
}

/**
 * An action or observation payload checked on its own kind's schema: the union's errors would list
 * every kind it is not.
 */
function payloadError(event: unknown): string | null {
  const e = event as Record<string, { kind?: unknown } | null | undefined>;
  for (const field of ['action', 'observation']) {
    const payload = e[field];
    if (!payload || typeof payload.kind !== 'string') continue;
    const v = eventValidator(payload.kind);
    if (!v(payload)) return describe(v.errors).replace(/(^|; )\(root\)|(^|; )\//g, `$1$2/${field}/`);
  }
  return null;
}

/** Why `state` is not a valid SDK base_state.json, or null when it is. */
export function sdkBaseStateError(state: unknown): string | null {
  const v = schemas().getSchema(BASE_STATE_ID)!;
  return v(state) ? null : describe(v.errors);
}

export interface SdkFolderCheck {
  /** events/*.json checked */
  events: number;
  /** one line per invalid file: its name, kind and why */
  problems: string[];
}

/** Checks every events/*.json and base_state.json of an SDK conversation folder. */
export function checkSdkFolder(dir: string): SdkFolderCheck {
  const problems: string[] = [];
  const names = readdirSync(join(dir, 'events'))
    .filter((n) => n.endsWith('.json'))
    .sort();
  for (const name of names) {
    const event = JSON.parse(readFileSync(join(dir, 'events', name), 'utf8')) as { kind?: unknown };
    const why = sdkEventError(event);
    if (why) problems.push(`events/${name} (${String(event.kind)}): ${why}`);
  }
  const why = sdkBaseStateError(JSON.parse(readFileSync(join(dir, 'base_state.json'), 'utf8')));
  if (why) problems.push(`base_state.json: ${why}`);
  return { events: names.length, problems };
}
