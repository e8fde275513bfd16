// The settings guarding the user that `logbook run` recorded for a conversation (its confirmation
// mode, endpoint, MCP file) are kept in the user's config folder too, beside the signed heads.
// session.json lies in the conversation's folder, by default inside the workspace where the
// agent's file tools can write; approve, reject and resolve take those settings from the copy kept
// here, and a session.json that says otherwise is named and ignored.
import crypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { folderKey } from '../../../core/signing';
import { logbookConfigDir, type Env } from '../config-dir';
import { type SessionInfo, writeDurableUnlessSame } from './session-file';

/** The guarding settings of a session.json, by setting key. */
export function guardedRecord(info: SessionInfo): Record<string, unknown> {
  return {
    'confirmation.mode': info.confirmation,
    'model.baseURL': info.base_url ?? undefined,
    'mcp.configFile': info.mcp_config ?? null,
  };
}

/** One small file per conversation folder, named by a hash of the folder's real path. */
export function keptRecordFile(env: Env, conversationDir: string): string {
  const key = crypto.hash('sha256', folderKey(conversationDir), 'hex').slice(0, 32);
  return join(logbookConfigDir(env), 'runs', `${key}.json`);
}

/** Where the kept record holds the fingerprint of the MCP file's content the run started from. */
export const MCP_CONFIG_SHA_KEY = 'mcp.configSha256';

/** `mcpConfigSha256`: the fingerprint of the MCP file's content the run read (none: no file). */
export function keepRecord(
  env: Env,
  conversationDir: string,
  info: SessionInfo,
  mcpConfigSha256?: string,
): void {
  const file = keptRecordFile(env, conversationDir);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const record = { ...guardedRecord(info), [MCP_CONFIG_SHA_KEY]: mcpConfigSha256 ?? null };
  writeDurableUnlessSame(file, JSON.stringify(record, null, 2) + '\n');
}

/** The kept settings; undefined when none were kept (a run of an older version, or a copied folder). */
export function readKeptRecord(env: Env, conversationDir: string): Record<string, unknown> | undefined {
  const file = keptRecordFile(env, conversationDir);
  if (!existsSync(file)) return undefined;
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return json !== null && typeof json === 'object' && !Array.isArray(json)
      ? (json as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
