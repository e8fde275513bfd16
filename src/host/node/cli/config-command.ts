// `logbook config`: the settings as this CLI resolves them here and now, each with where it came
// from (default, the config file, a variable, a flag). A secret shows only whether it is set, and
// a URL never shows the credentials it carries.
import { existsSync } from 'node:fs';
import { describeSource, type ResolvedValue, SETTINGS_BY_KEY } from '../../../core/settings';
import { withoutUrlCredentials } from '../../../core/secrets/url-secrets';
import { expectPositionals, parseCommandArgs } from './args';
import { cliSettings, configFilePath } from './cli-settings';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';

export async function configCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('config', argv, { json: { type: 'boolean' } });
  if (values.help) {
    io.out(COMMAND_HELP.config);
    return EXIT.ok;
  }
  expectPositionals('config', positionals, []);
  const file = configFilePath(io.env);
  const { resolved } = cliSettings('config', io.env, { warn: (line) => io.err(line) });
  const rows = [...resolved].map(([key, entry]) => ({ key, ...shown(key, entry) }));
  if (values.json) {
    io.out(
      JSON.stringify({
        configFile: { path: file, exists: existsSync(file) },
        settings: rows.map((r) => ({
          key: r.key,
          ...(r.secret ? { set: r.set } : { value: r.value }),
          from: r.from,
          sources: r.sources,
        })),
      }),
    );
    return EXIT.ok;
  }
  io.out(`config file: ${file}${existsSync(file) ? '' : ' (none)'}`);
  const width = Math.max(...rows.map((r) => r.key.length));
  for (const r of rows) {
    const text = r.secret ? (r.set ? 'set' : 'unset') : valueText(r.value);
    io.out(`${r.key.padEnd(width)}  ${text}  (${r.from})`);
  }
  return EXIT.ok;
}

function shown(key: string, entry: ResolvedValue) {
  const def = SETTINGS_BY_KEY.get(key)!;
  const from = entry.sources.map(describeSource).join(' + ');
  const sources = entry.sources;
  if (def.secret) return { secret: true, set: entry.value !== '', from, sources, value: undefined };
  const value = key === 'model.baseURL' ? withoutUrlCredentials(entry.value as string) : entry.value;
  return { secret: false, set: true, from, sources, value };
}

function valueText(value: unknown): string {
  if (value === null) return '(none)';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}
