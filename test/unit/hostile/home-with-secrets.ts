// A hostile test's own home with what the sandbox hides in it: a private key and Logbook's config,
// beside a workspace, all in a new folder under the user's home (not under /tmp, which the sandbox
// replaces with its own; hard links need the workspace and the home on one file system).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface HomeWithSecrets {
  /** The folder holding both; remove it after the test. */
  base: string;
  home: string;
  ws: string;
  /** home/.ssh/id_ed25519 */
  key: string;
  /** home/.config/logbook/config.json */
  config: string;
}

export function homeWithSecrets(prefix: string, keyText: string, configText: string): HomeWithSecrets {
  const base = mkdtempSync(join(homedir(), prefix));
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.config', 'logbook'), { recursive: true });
  const key = join(home, '.ssh', 'id_ed25519');
  const config = join(home, '.config', 'logbook', 'config.json');
  writeFileSync(key, keyText, { mode: 0o600 });
  writeFileSync(config, configText);
  return { base, home, ws, key, config };
}
