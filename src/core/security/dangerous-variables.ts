// Variables that decide which program runs, or how: setting one turns a harmless command into
// another (`GIT_PAGER='sh -c …' git log`, `PATH=.:$PATH ls`, `LESSOPEN='|sh %s' less f`). Every
// way of setting one is judged by this list: a prefix assignment, `env`, `export`, `declare -x`,
// `local`, `readonly`, `printf -v`, `read`, `${VAR:=…}`.

const NAMES = new Set([
  // The shell and the dynamic loader.
  'PATH', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4', 'IFS', 'SHELLOPTS', 'BASHOPTS',
  'CDPATH', 'HOME', 'XDG_CONFIG_HOME', 'SHELL', 'HISTFILE', 'GCONV_PATH',
  // Interpreters' start-up code and module paths.
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'PERLLIB',
  'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS',
  // Programs other programs start: editors, pagers, browsers, password prompts, remote shells.
  'EDITOR', 'VISUAL', 'BROWSER', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'LESSKEYIN', 'LESSKEY_SYSTEM', 'MANOPT',
  'SSH_ASKPASS', 'SUDO_ASKPASS', 'RSYNC_RSH', 'RSYNC_CONNECT_PROG',
  // Options read from the environment, which can name a program (`--pre`, `--to-command`, `-TT`).
  'RIPGREP_CONFIG_PATH', 'TAR_OPTIONS', 'ZIPOPT', 'GREP_OPTIONS',
  // git: another repository or configuration, and the programs it starts.
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_EXEC_PATH', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'GIT_SSH',
  'GIT_SSH_COMMAND', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_PROXY_COMMAND', 'GIT_TEMPLATE_DIR',
  'GIT_CEILING_DIRECTORIES', 'GIT_ALLOW_PROTOCOL',
]); // prettier-ignore

// Families: the loaders' LD_ and DYLD_ names, git's GIT_CONFIG… and GIT_TRACE… (which write files), any …PAGER.
const PATTERNS = [/^LD_/, /^DYLD_/, /^GIT_CONFIG/, /^GIT_TRACE/, /PAGER$/, /^BASH_FUNC_/];

export function isDangerousVariable(name: string): boolean {
  return NAMES.has(name) || PATTERNS.some((re) => re.test(name));
}

/** The variable a `NAME=value`, `NAME+=value` or `NAME[i]=value` word sets, or undefined. */
export function assignedName(word: string): string | undefined {
  return /^([A-Za-z_]\w*)(?:\[[^\]]*\])?\+?=/.exec(word)?.[1];
}

/**
 * Names a word sets through `${NAME:=value}` or `${NAME=value}` when it is expanded (the parser
 * hands these on as `$NAME:=value`).
 */
export function defaultAssignments(word: string): string[] {
  return [...word.matchAll(/\$\{?([A-Za-z_]\w*):?=/g)].map((m) => m[1]!);
}

export function setsVariableReason(name: string): string {
  return `sets ${name}, which changes what programs run`;
}
