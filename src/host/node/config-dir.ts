// The user's Logbook config folder, shared by the CLI and the editor: $XDG_CONFIG_HOME/logbook
// (~/.config/logbook by default). It holds the CLI's signing key, the trust list, and the heads of
// the conversations the CLI signs.
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { folderKey } from '../../core/signing';

export type Env = Readonly<Record<string, string | undefined>>;

export function logbookConfigDir(env: Env): string {
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(config, 'logbook');
}

/**
 * Where the CLI keeps a conversation's signed head: one small file per conversation folder, named
 * by a hash of the folder's real path (a CLI conversation is the folder it was run in; a copy
 * elsewhere is another one, with no head of its own until it is written to).
 */
export function cliHeadFile(env: Env, conversationDir: string): string {
  const key = crypto.hash('sha256', folderKey(conversationDir), 'hex').slice(0, 32);
  return path.join(logbookConfigDir(env), 'heads', `${key}.json`);
}
