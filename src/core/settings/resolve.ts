// Resolves the settings from layers, each later one over the earlier: defaults, then VS Code's
// user and workspace settings or the CLI's config file, then what a run recorded, then the
// environment, then flags. Every value keeps where it came from; a bad value is an error naming
// its source (or, read leniently as VS Code does, the value below it with a note).
import { type Host, SETTINGS, type SettingDef } from './schema';
import { TextValueError } from './kinds';
import { RENAMED_SETTINGS } from './renamed';

export type Source =
  | { kind: 'default' }
  | { kind: 'user' }
  | { kind: 'workspace' }
  | { kind: 'folder' }
  | { kind: 'file'; path: string }
  | { kind: 'recorded'; path: string }
  | { kind: 'env'; name: string }
  | { kind: 'flag'; name: string };

/** One layer's value of a setting; `text` is what the user typed, when it was text. */
export interface LayerValue {
  value: unknown;
  source: Source;
  text?: string;
}

export type Layer = ReadonlyMap<string, LayerValue>;

export interface ResolvedValue {
  value: unknown;
  /** Where the value came from, one entry per layer that added to it (the default when none did). */
  sources: Source[];
}

export type ResolvedSettings = ReadonlyMap<string, ResolvedValue>;

/** A bad value, with the source it came from. */
export class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(
    message: string,
    readonly source: Source,
  ) {
    super(message);
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function forHost(host: Host): SettingDef[] {
  return SETTINGS.filter((s) => s.hosts.includes(host));
}

/** Says where a value came from, as `logbook config` prints it. */
export function describeSource(source: Source): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'user':
      return 'user settings';
    case 'workspace':
      return 'workspace settings';
    case 'folder':
      return 'folder settings';
    case 'file':
      return `file ${source.path}`;
    case 'recorded':
      return `run ${source.path}`;
    case 'env':
      return `env ${source.name}`;
    case 'flag':
      return `flag --${source.name}`;
  }
}

/** A layer of plain values (VS Code's settings, what a run recorded); absent keys are left out. */
export function valuesLayer(source: Source, values: Readonly<Record<string, unknown>>): Layer {
  const layer = new Map<string, LayerValue>();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) layer.set(key, { value, source });
  }
  return layer;
}

/**
 * The CLI's config file: a JSON object keyed by setting (`{"model.name": "llama3.2"}`). A key no
 * setting of `host` has, or a secret, is an error: a typo would otherwise go unnoticed, and the
 * key belongs in the environment, not in a file. A setting's old key is read as its new one (the
 * new key wins when the file has both), each told to `onRenamed`.
 */
export function fileLayer(
  path: string,
  json: unknown,
  host: Host,
  onRenamed?: (message: string) => void,
): Layer {
  const source: Source = { kind: 'file', path };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new SettingsError(
      `${path} must hold a JSON object of settings, such as {"model.name": "..."}.`,
      source,
    );
  }
  const values = withRenamedKeys(json as Record<string, unknown>, (oldKey, newKey, both) =>
    onRenamed?.(
      both
        ? `${path}: "${oldKey}" is the old name of "${newKey}", which the file also sets; "${oldKey}" is ignored. Remove it.`
        : `${path}: "${oldKey}" is now "${newKey}"; read as "${newKey}". Rename it in the file.`,
    ),
  );
  const known = new Map(forHost(host).map((s) => [s.key, s]));
  for (const key of Object.keys(values)) {
    const def = known.get(key);
    if (!def) {
      throw new SettingsError(
        `${path}: "${key.slice(0, 60)}" is not a setting (\`logbook config\` lists them).`,
        source,
      );
    }
    if (def.secret) {
      throw new SettingsError(
        `${path}: "${key}" is not read from a file; set ${def.env?.join(' or ')} in the environment.`,
        source,
      );
    }
  }
  return valuesLayer(source, values);
}

/** `values` with each old key under its new name; the new key's own value wins over the old one's. */
function withRenamedKeys(
  values: Readonly<Record<string, unknown>>,
  onRenamed: (oldKey: string, newKey: string, both: boolean) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const newKey = RENAMED_SETTINGS.get(key);
    if (newKey === undefined) {
      out[key] = value;
      continue;
    }
    const both = Object.hasOwn(values, newKey);
    onRenamed(key, newKey, both);
    if (!both) out[newKey] = value;
  }
  return out;
}

/** The settings of `host` named by environment variables (a blank variable counts as unset). */
export function envLayer(env: Env, host: Host): Layer {
  const layer = new Map<string, LayerValue>();
  for (const def of forHost(host)) {
    for (const name of def.env ?? []) {
      const text = env[name]?.trim();
      if (!text) continue;
      const source: Source = { kind: 'env', name };
      layer.set(def.key, { value: fromText(def, text, source), source, text });
      break;
    }
  }
  return layer;
}

export type FlagValues = Readonly<Record<string, string | readonly string[] | boolean | undefined>>;

/**
 * The settings given as flags, from parsed arguments: a flag and its other name must agree, a
 * repeated flag adds up, and a flag without a value sets the value it stands for.
 */
export function flagLayer(flags: FlagValues, host: Host): Layer {
  const layer = new Map<string, LayerValue>();
  for (const def of forHost(host)) {
    if (!def.flag) continue;
    const { name, alias } = def.flag;
    const main = flags[name];
    const other = alias !== undefined ? flags[alias] : undefined;
    if (main !== undefined && other !== undefined && JSON.stringify(main) !== JSON.stringify(other)) {
      throw new SettingsError(
        `--${name} ${String(main)} and --${alias} ${String(other)} disagree (--${alias} is another name for it).`,
        { kind: 'flag', name },
      );
    }
    const given = main ?? other;
    if (given === undefined || given === false) continue;
    const source: Source = { kind: 'flag', name: main !== undefined ? name : alias! };
    if (given === true) {
      layer.set(def.key, { value: def.flag.sets, source });
    } else if (typeof given === 'string') {
      layer.set(def.key, { value: fromText(def, given.trim(), source), source, text: given });
    } else {
      const values = given.flatMap((t) => {
        const v = fromText(def, t.trim(), source);
        return Array.isArray(v) ? (v as unknown[]) : [v];
      });
      layer.set(def.key, { value: values, source, text: given.join(' ') });
    }
  }
  return layer;
}

function fromText(def: SettingDef, text: string, source: Source): unknown {
  try {
    return def.kind.fromText(text);
  } catch (err) {
    if (!(err instanceof TextValueError)) throw err;
    throw new SettingsError(`${where(def, source)} must be ${expectation(def)}.`, source);
  }
}

export interface ResolveOptions {
  host: Host;
  /**
   * VS Code's reading: a bad value falls back to the one below it (a hand-edited settings.json can
   * hold anything, and the Settings editor already flags it), reported through `onProblem`.
   */
  lenient?: { onProblem?: (message: string) => void };
}

export function resolveSettings(layers: readonly Layer[], options: ResolveOptions): ResolvedSettings {
  const out = new Map<string, ResolvedValue>();
  for (const def of forHost(options.host)) {
    let resolved: ResolvedValue = { value: def.default, sources: [{ kind: 'default' }] };
    for (const layer of layers) {
      const entry = layer.get(def.key);
      if (!entry) continue;
      const problem = check(def, entry, options.lenient === undefined);
      if (problem) {
        if (!options.lenient) throw new SettingsError(problem, entry.source);
        options.lenient.onProblem?.(problem);
        continue;
      }
      resolved =
        def.adds && resolved.sources[0]?.kind !== 'default'
          ? {
              value: [...new Set([...(resolved.value as string[]), ...(entry.value as string[])])],
              sources: [...resolved.sources, entry.source],
            }
          : { value: entry.value, sources: [entry.source] };
    }
    out.set(def.key, resolved);
  }
  return out;
}

/** What is wrong with a layer's value, or undefined when it is good. */
function check(def: SettingDef, entry: LayerValue, strict: boolean): string | undefined {
  const parsed = def.kind.zod.safeParse(entry.value);
  if (!parsed.success) {
    return `${where(def, entry.source)} must be ${expectation(def)}, got ${shown(def, entry)}.`;
  }
  const problems = strict && def.problems ? def.problems(parsed.data) : [];
  return problems.length > 0 ? `${where(def, entry.source)}: ${problems.join('; ')}.` : undefined;
}

function where(def: SettingDef, source: Source): string {
  switch (source.kind) {
    case 'env':
      return source.name;
    case 'flag':
      return `--${source.name}`;
    case 'file':
    case 'recorded':
      return `${source.path}: "${def.key}"`;
    default:
      return `logbook.${def.key} in ${describeSource(source)}`;
  }
}

function expectation(def: SettingDef): string {
  return def.expect ?? def.kind.expect;
}

/** The offending value, cut short; a secret's never. */
function shown(def: SettingDef, entry: LayerValue): string {
  if (def.secret) return 'a value of the wrong kind';
  if (entry.text !== undefined) return JSON.stringify(entry.text.slice(0, 40));
  const json = JSON.stringify(entry.value) ?? String(entry.value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}
