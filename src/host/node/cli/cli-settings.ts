// The CLI's settings, resolved once per command from the schema's layers: defaults, then the
// config file ($XDG_CONFIG_HOME/logbook/config.json, ~/.config/logbook by default), then what a
// run recorded (for approve, reject and resolve), then the environment, then the flags.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  envLayer,
  fileLayer,
  type FlagValues,
  flagLayer,
  type Layer,
  resolveSettings,
  type ResolvedSettings,
  SettingsError,
  settingValue,
} from '../../../core/settings';
import { logbookConfigDir } from '../config-dir';
import { UsageError } from './exit-codes';
import type { CliIo } from './io';

type Env = Readonly<Record<string, string | undefined>>;

export function configFilePath(env: Env): string {
  return join(logbookConfigDir(env), 'config.json');
}

/** The config files whose old keys were told about already: once per process, however many reads. */
const toldRenamed = new Set<string>();

/** The config file as a layer; none when there is no file. Its old keys are told to `warn`. */
function configFileLayer(path: string, warn?: (line: string) => void): Layer | undefined {
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SettingsError(`${path} is not valid JSON: ${(err as Error).message}`, { kind: 'file', path });
  }
  const told = toldRenamed.has(path);
  toldRenamed.add(path);
  return fileLayer(path, json, 'cli', (message) => {
    if (!told) warn?.(`logbook: ${message}`);
  });
}

export interface CliSettingsInput {
  /** Parsed flags of the command (only the schema's flags are read). */
  flags?: FlagValues;
  /** What the run recorded, over the file and under the environment. */
  recorded?: Layer;
  /** Where a line about the config file goes (an old setting name read as its new one). */
  warn?: (line: string) => void;
}

export interface CliSettings {
  resolved: ResolvedSettings;
  get<T>(key: string): T;
}

/** Resolves the settings; a bad value is a usage error that names its source. */
export function cliSettings(command: string, env: Env, input: CliSettingsInput = {}): CliSettings {
  try {
    const file = configFileLayer(configFilePath(env), input.warn);
    const layers = [
      ...(file ? [file] : []),
      ...(input.recorded ? [input.recorded] : []),
      envLayer(env, 'cli'),
      flagLayer(input.flags ?? {}, 'cli'),
    ];
    const resolved = resolveSettings(layers, { host: 'cli' });
    return { resolved, get: (key) => settingValue(resolved, key) };
  } catch (err) {
    if (err instanceof SettingsError) throw new UsageError(`logbook ${command}: ${err.message}`);
    throw err;
  }
}

/** The settings of a command that has no setting flags. */
export function ioSettings(command: string, io: Pick<CliIo, 'env' | 'err'>): CliSettings {
  return cliSettings(command, io.env, { warn: (line) => io.err(line) });
}
