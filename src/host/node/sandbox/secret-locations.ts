// Where secrets live on a developer's machine: the sandbox makes each of these unreadable (an
// empty folder or an empty file appears in its place). The home folders are hidden whole already
// (home-readable.ts); this list is what stays hidden inside the toolchain folders allowed there, in
// the folders the user allows, and outside the home folder. One list, which the user extends with
// `logbook.sandbox.denyRead` (`--deny-read` in the CLI); Logbook's own folders are added by the host.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Relative to the home folder. */
const HOME_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/logbook',
  '.local/state/logbook',
  // The CLI's compiled code (cli/compile-cache-dir.ts): what a command put there would run later.
  '.cache/logbook',
  '.config/git/credentials',
  '.config/op',
  '.config/rclone',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.yarnrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.pki',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.cache/google-chrome',
  '.cache/chromium',
  '.cache/BraveSoftware',
  '.cache/microsoft-edge',
  '.cache/mozilla',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  // The editors' own data: secret storage, tokens, other extensions' state.
  '.config/Code',
  '.config/Code - Insiders',
  '.config/VSCodium',
  '.vscode-server/data',
  '.local/share/code-server',
  '.config/code-server',
];

/** Machine-wide files only root can read, which a sandbox started by root could otherwise read. */
const SYSTEM_SECRETS = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh', '/root/.ssh'];

export interface SecretLocationOptions {
  home?: string;
  /** XDG_CONFIG_HOME when it is set. */
  configHome?: string;
  /** XDG_STATE_HOME when it is set (the CLI's checkpoint stores are under it). */
  stateHome?: string;
  /** XDG_CACHE_HOME when it is set (the CLI's compile cache is under it). */
  cacheHome?: string;
  /** Added by the user (`~` expanded, relative paths taken from the home folder). */
  extra?: readonly string[];
  /** Where Logbook keeps keys or logs outside the home folder (the CLI's LOGBOOK_SIGNING_KEY, say). */
  own?: readonly string[];
}

/** The list last made, and what from: a run asks at every decision, file tool call and launch. */
let last: { from: string; list: readonly string[] } | undefined;

/** Every location the sandbox hides, absolute, without duplicates (existing or not). */
export function secretLocations(opts: SecretLocationOptions = {}): string[] {
  const home = opts.home ?? homedir();
  const { configHome, stateHome, cacheHome, own, extra } = opts;
  // The working folder too: a relative path is resolved against it.
  const from = JSON.stringify([process.cwd(), home, configHome, stateHome, cacheHome, own, extra]);
  if (last?.from !== from) last = { from, list: locationsFor(home, opts) };
  return [...last.list];
}

function locationsFor(home: string, opts: SecretLocationOptions): string[] {
  const found = [
    ...HOME_SECRETS.map((p) => join(home, p)),
    ...(opts.configHome
      ? [
          join(opts.configHome, 'logbook'),
          join(opts.configHome, 'gcloud'),
          join(opts.configHome, 'git', 'credentials'),
        ]
      : []),
    ...(opts.stateHome ? [join(opts.stateHome, 'logbook')] : []),
    ...(opts.cacheHome ? [join(opts.cacheHome, 'logbook')] : []),
    ...SYSTEM_SECRETS,
    ...(opts.own ?? []),
    ...(opts.extra ?? []).map((p) => expandHome(p, home)),
  ];
  return [...new Set(found.map((p) => resolve(p)))];
}

export function expandHome(p: string, home: string = homedir()): string {
  const trimmed = p.trim();
  if (trimmed === '~') return home;
  if (trimmed.startsWith('~/')) return join(home, trimmed.slice(2));
  return isAbsolute(trimmed) ? trimmed : join(home, trimmed);
}
