// Which paths are sensitive, judged from the text of a path (commands give raw words such as
// `~/.ssh/id_rsa` or `$HOME/.bashrc`; file tools give absolute paths). Pure: no file system access.

const SECRET_NAMES = [
  /^\.env(\..+)?$/, // .env, .env.local... (templates are excluded below)
  /\.(pem|key|p12|pfx|keystore|jks)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/,
  /^\.(npmrc|pypirc|netrc|git-credentials|pgpass)$/,
  /^credentials(\.json|\.ya?ml)?$/,
  /^(secrets?|service-account)\.(json|ya?ml|toml)$/,
];
/** Names the patterns above match, for telling whether a glob (`id_*`, `signing-key?pem`) can reach one. */
export const SECRET_NAME_EXAMPLES = [
  '.env', '.env.local', '.env.production', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', '.npmrc', '.pypirc',
  '.netrc', '.git-credentials', '.pgpass', 'credentials', 'credentials.json', 'credentials.yml', 'secrets.json',
  'secret.yaml', 'secrets.toml', 'service-account.json', 'signing-key.pem', 'server.key', 'cert.p12', 'cert.pfx',
  'release.keystore', 'release.jks',
]; // prettier-ignore
export const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.keystore', '.jks'];
const SECRET_TEMPLATES = /^\.env\.(example|sample|template|dist|defaults?)$/;
export const SECRET_DIRS = ['.ssh', '.aws', '.gnupg', '.kube', '.docker', '.azure', '.password-store'];
/**
 * Folders under ~/.config (or $XDG_CONFIG_HOME) that hold credentials: Logbook's own (its signing
 * key, see src/host/node/signing-key.ts), the GitHub CLI's token, gcloud's.
 */
export const SECRET_CONFIG_DIRS = ['logbook', 'gh', 'gcloud'];
const CONFIG_HOME = /^(\.config|\$XDG_CONFIG_HOME|\$\{XDG_CONFIG_HOME\})$/;
/** Shell startup and tool configuration files: writing them changes what later commands do. */
const STARTUP_FILES =
  /^\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|cshrc|tcshrc|inputrc|gitconfig|vimrc|npmrc|yarnrc)$/;
const HOME_PREFIX = /^(~|\$HOME|\$\{HOME\}|\/root|\/home\/[^/]+|\/Users\/[^/]+)(\/|$)/;
const SYSTEM_DIRS =
  /^\/(etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|opt|System|Library|private\/etc)(\/|$)/;
const DISK_DEVICES = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md\d)/;

function segments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
}

/** Why a path may hold secrets (keys, tokens, passwords), or undefined. */
export function secretReason(path: string): string | undefined {
  const parts = segments(path);
  const name = parts[parts.length - 1] ?? '';
  const dir = parts.find((p) => SECRET_DIRS.includes(p));
  if (dir) return `${path} is in ${dir}/, which holds credentials`;
  const config = parts.findIndex(
    (p, i) => CONFIG_HOME.test(p) && SECRET_CONFIG_DIRS.includes(parts[i + 1] ?? ''),
  );
  if (config !== -1)
    return `${path} is in ${parts.slice(config, config + 2).join('/')}/, which holds credentials`;
  if (SECRET_TEMPLATES.test(name)) return undefined;
  if (SECRET_NAMES.some((re) => re.test(name))) return `${path} may hold secrets`;
  return undefined;
}

/**
 * Folders whose files are not the project's own: repository internals (a hook runs at the next
 * commit) and Logbook's conversation logs, which the CLI keeps in the workspace by default (the
 * agent rewriting its own record would defeat the point of keeping one).
 */
export function internalsReason(path: string): string | undefined {
  const parts = segments(path);
  if (parts.includes('.git')) return `${path} is inside .git (repository internals and hooks)`;
  if (parts.includes('.logbook')) return `${path} is inside .logbook (Logbook's own conversation logs)`;
  return undefined;
}

/** Why writing to a path is dangerous beyond the file itself, or undefined. */
export function protectedWriteReason(path: string): string | undefined {
  const secret = secretReason(path);
  if (secret) return secret;
  const parts = segments(path);
  const name = parts[parts.length - 1] ?? '';
  if (STARTUP_FILES.test(name)) return `${path} is a shell or tool startup file`;
  if (HOME_PREFIX.test(path) && parts.some((p, i) => i > 0 && p.startsWith('.'))) {
    return `${path} is a settings file in the home folder`;
  }
  const internal = internalsReason(path);
  if (internal) return internal;
  if (SYSTEM_DIRS.test(path)) return `${path} is a system location`;
  return undefined;
}

/**
 * Files outside any project whose content is private to the machine or the user: password hashes,
 * the environment and command lines of processes (API keys live there), kernel memory, shell and
 * REPL histories. Reading them is never routine for a coding task.
 */
const PRIVATE_SYSTEM_FILES =
  /^\/(etc\/(g?shadow-?|sudoers|master\.passwd|security\/opasswd)|etc\/sudoers\.d\/.+|proc\/[^/]+\/(environ|cmdline|mem|auxv)|proc\/[^/]+\/task\/[^/]+\/environ|proc\/kcore|dev\/k?mem|root\/.*)$/;
const HISTORY_FILES = /^\.([a-z_]+_)?history$|^\.(lesshst|viminfo)$|^fish_history$/;

/** Why reading a path exposes private data of the machine or the user, or undefined. */
export function sensitiveReadReason(path: string): string | undefined {
  if (PRIVATE_SYSTEM_FILES.test(path)) return `${path}, private data of the machine or its processes`;
  const parts = segments(path);
  if (HISTORY_FILES.test(parts[parts.length - 1] ?? '')) return `${path}, a history of typed commands`;
  return undefined;
}

/** Paths `sensitiveReadReason` knows, for telling whether a glob such as /etc/shado? reaches one. */
export const SENSITIVE_READ_EXAMPLES = [
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/shadow-',
  '/etc/sudoers',
  '/etc/master.passwd',
  '/proc/self/environ',
  '/proc/1/environ',
  '/proc/self/cmdline',
  '/proc/self/mem',
  '/dev/mem',
  '/root/.bash_history',
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '$HOME/.bash_history',
  '$HOME/.zsh_history',
];

export function isDiskDevice(path: string): boolean {
  return DISK_DEVICES.test(path);
}

/** Targets writing to which has no lasting effect. */
export function isHarmlessSink(path: string): boolean {
  return /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(path) || /^&?\d$/.test(path) || path === '-';
}

/** The home folder or the file system root themselves (as a deletion target, the worst case). */
export function isRootOrHome(path: string): boolean {
  const trimmed = path.replace(/\/+\*?$/, '') || '/';
  return (
    trimmed === '/' ||
    /^(~|\$HOME|\$\{HOME\}|\/root|\/home|\/home\/[^/]+|\/Users|\/Users\/[^/]+)$/.test(trimmed)
  );
}

/** True for words that are paths the shell expands in place (globs, variables, home). */
export function isExpandedAtRunTime(word: string): boolean {
  return /[*?[]/.test(word) || word.includes('$') || word.startsWith('~');
}
