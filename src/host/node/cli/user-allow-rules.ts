// "Always allow" from a terminal or an ACP client: the rule goes into the user's own config file
// (never a workspace's), so it holds for every later run on this machine, as it does in VS Code.
// The file is rewritten whole through a temporary file and a rename, so a crash leaves the old one.
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { configFilePath } from './cli-settings';

type Env = Readonly<Record<string, string | undefined>>;

const KEY = 'confirmation.allowRules';

export interface AddedAllowRule {
  /** The config file written (or that already held the rule). */
  path: string;
  /** False when the file already held the same rule. */
  added: boolean;
}

/** Adds `rule` (a command prefix, as in VS Code's setting) to the user's config file. */
export function addUserAllowRule(env: Env, rule: string): AddedAllowRule {
  const trimmed = rule.trim();
  if (trimmed === '') throw new Error('An allow rule cannot be empty.');
  const path = configFilePath(env);
  const config = readConfig(path);
  const rules = Array.isArray(config[KEY])
    ? (config[KEY] as unknown[]).filter((r) => typeof r === 'string')
    : [];
  if (rules.includes(trimmed)) return { path, added: false };
  config[KEY] = [...rules, trimmed];
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return { path, added: true };
}

function readConfig(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new Error(`${path} must hold a JSON object of settings.`);
  }
  return json as Record<string, unknown>;
}
