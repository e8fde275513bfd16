// The home folders inside the sandbox: the user's home, `/root` and every folder under `/home` are
// empty there, except the toolchain folders named in one allowlist (read-only), which the user
// extends with `logbook.sandbox.homeReadable` (`--home-readable`). A secret location inside an
// allowed folder stays hidden (secret-locations.ts); the workspace and the writable folders are
// mounted on top wherever they are.
import { basename, dirname, resolve, sep } from 'node:path';
import { expandHome } from './secret-locations';

/**
 * Relative to the home folder: what `npm test`, `git`, `python3`, `node`, `cargo` and their version
 * managers read there. Credentials inside them (`.cargo/credentials.toml`, ...) stay hidden.
 */
export const HOME_READABLE_DEFAULTS = [
  '.gitconfig',
  '.config/git',
  '.npm',
  '.nvm',
  '.volta',
  '.bun',
  '.deno',
  '.cache',
  '.cargo',
  '.rustup',
  '.pyenv',
  '.local/bin',
  '.local/lib',
];

/** The folders whose contents the sandbox replaces with an empty folder: every user's home. */
export function hiddenHomes(home: string): string[] {
  const roots = ['/root', '/home'];
  const h = resolve(home);
  // A home elsewhere (a service account's /var/lib/x, say) is hidden too; never the root itself.
  if (h !== '/' && !roots.some((r) => h === r || h.startsWith(r + sep))) roots.push(h);
  return roots;
}

/** The allowed locations, absolute (`~` expanded, relative paths taken from the home folder). */
export function homeReadable(home: string, extra: readonly string[] = []): string[] {
  const all = [...HOME_READABLE_DEFAULTS, ...extra].map((p) => resolve(expandHome(p, home)));
  return [...new Set(all)];
}

/**
 * What the sandbox itself needs from a hidden home: the folder a program it runs inside (the
 * network bridge's Node) was installed in. `~/.nvm/versions/node/v22/bin/node` gives
 * `~/.nvm/versions/node/v22`; `~/.vscode-server/bin/<id>/node` gives its folder, which also holds
 * the editor's shell integration.
 */
export function installFolder(program: string): string {
  const dir = dirname(resolve(program));
  return basename(dir) === 'bin' ? dirname(dir) : dir;
}

export function isInsideOrSame(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
