// Rates one program invocation by name. Wrappers (sudo, env, timeout, xargs...) are unwrapped and
// the wrapped command rated too; shells and interpreters are judged by where their code comes from.
import { afterOptions, hasOption, operands, optionValue, programName } from './argv-options';
import { type Finding, high, low, lowChange, medium, printsEnvironment } from './risk';
import type { ProgramRule, RuleEnv } from './rule-types';
import { hasSubstitution } from './shell-parse';
import { FILE_RULES } from './file-rules';
import { git } from './git-rules';
import { PACKAGE_RULES } from './package-rules';
import { PROCESS_RULES } from './process-rules';
import { programOptionFindings } from './program-options';
import { sedScriptFindings } from './sed-script';
import { DOWNLOADERS, SYSTEM_RULES } from './system-rules';
import { VARIABLE_RULES } from './variable-rules';

/** Programs that only read or print (their arguments are still checked for secret files). */
const READ_ONLY = new Set([
  'ls', 'dir', 'vdir', 'cat', 'tac', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack',
  'echo', 'printf', 'pwd', 'wc', 'sort', 'uniq', 'cut', 'tr', 'paste', 'join', 'comm', 'diff', 'cmp', 'file',
  'stat', 'du', 'df', 'which', 'whereis', 'whoami', 'id', 'groups', 'date', 'cal', 'uname', 'hostname', 'uptime',
  'basename', 'dirname', 'realpath', 'readlink', 'tree', 'jq', 'yq', 'xxd', 'od', 'hexdump', 'strings', 'md5sum',
  'sha1sum', 'sha256sum', 'sha512sum', 'shasum', 'cksum', 'b2sum', 'nl', 'column', 'fold', 'fmt', 'expand',
  'unexpand', 'rev', 'seq', 'sleep', 'ps', 'pgrep', 'free', 'nproc', 'locale', 'getconf', 'lsof', 'man', 'info',
  'tput', 'clear', 'zcat', 'bzcat', 'xzcat', 'look', 'numfmt', 'tsort', 'yes', 'lsb_release', 'arch', 'tty',
  'top', 'htop', 'vmstat', 'iostat', 'w', 'who', 'last', 'printf', 'test', '[', '[[', 'true', 'false', ':',
]); // prettier-ignore

/** Shell builtins that only affect the shell itself. */
const SHELL_BUILTINS = new Set([
  'cd', 'pushd', 'popd', 'dirs', 'set', 'unset', 'shopt', 'alias', 'unalias', 'read', 'declare', 'typeset',
  'local', 'readonly', 'wait', 'jobs', 'fg', 'bg', 'disown', 'hash', 'type', 'exit', 'return', 'shift', 'break',
  'continue', 'history', 'help', 'trap', 'umask', 'ulimit', 'let', 'getopts', 'caller', 'compgen', 'complete',
]); // prettier-ignore

/**
 * Builtins that change how later commands behave (an alias or trap runs other code under a
 * harmless name, hash points a name elsewhere) or write the history file: not reads.
 */
const SHELL_CHANGES = new Set([
  'alias',
  'unalias',
  'trap',
  'hash',
  'history',
  'shopt',
  'umask',
  'ulimit',
  'complete',
]);

/** Read-only programs that write after all with these options (`less -o log`, `yq -i`, `date -s`). */
const WRITING_OPTIONS: Record<string, (args: readonly string[], env: RuleEnv) => Finding[]> = {
  less: (args, env) => {
    const log = optionValue(args, 'o', 'log-file') ?? optionValue(args, 'O', 'LOG-FILE');
    return log === undefined ? [] : env.ctx.writeTarget(log);
  },
  yq: (args) => (hasOption(args, 'i', 'inplace') ? [medium('yq -i edits files in place')] : []),
  date: (args) => (hasOption(args, 's', 'set') ? [medium('date -s sets the system clock')] : []),
  hostname: (args) => (operands(args).length > 0 ? [medium('hostname renames the machine')] : []),
};

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const INTERPRETER =
  /^(python[\d.]*|pypy3?|node|nodejs|deno|ruby|perl|php|lua|Rscript|tsx|ts-node|osascript|pwsh)$/;

/** `sudo -u bob cmd`: HIGH in itself, and the wrapped command is rated as well. */
const sudo: ProgramRule = (args, env, name) => {
  const rest = afterOptions(args, [
    '-u',
    '-g',
    '-h',
    '-p',
    '-C',
    '-D',
    '-r',
    '-t',
    '-U',
    '-T',
    '--user',
    '--group',
  ]);
  const inner = rest.length > 0 ? env.ctx.analyzeArgv(rest, env.site, env.command) : [];
  return [high(`runs as root with ${name}`), ...inner];
};

function wrapper(withValue: readonly string[], skipOperands = 0): ProgramRule {
  return (args, env, name) => {
    const rest = afterOptions(args, withValue).slice(skipOperands);
    if (rest.length === 0) return [low(`${name} alone does nothing risky`)];
    return env.ctx.analyzeArgv(rest, env.site, env.command);
  };
}

/** Whether text run as code is decided at run time (a substitution or a bare variable). */
function isDynamic(text: string): boolean {
  return hasSubstitution(text) || /^\s*("?\$\{?\w+\}?"?\s*)+$/.test(text);
}

function upstreamDownloads(env: RuleEnv): boolean {
  return env.site.upstream.some((c) => c.argv.some((word) => DOWNLOADERS.has(programName(word))));
}

/** Code an interpreter reads from stdin: piped from elsewhere, from a heredoc, or typed. */
function stdinCode(env: RuleEnv, name: string, isShell: boolean, args: readonly string[]): Finding[] {
  if (env.site.upstream.length > 0) {
    return upstreamDownloads(env)
      ? [high(`pipes a download straight into ${name}`)]
      : [high(`runs whatever is piped into ${name}, which cannot be checked`)];
  }
  const heredoc = env.command.redirects.find((r) => r.heredoc !== undefined);
  if (heredoc)
    return isShell ? env.ctx.analyzeText(heredoc.heredoc ?? '') : [medium(`runs inline ${name} code`)];
  const hereString = env.command.redirects.find((r) => r.op === '<<<');
  if (hereString) {
    if (!isShell) return [medium(`runs inline ${name} code`)];
    return isDynamic(hereString.target)
      ? [high(`${name} runs code built at run time, which cannot be checked`)]
      : env.ctx.analyzeText(hereString.target);
  }
  const file = env.command.redirects.find((r) => r.op === '<');
  if (file) return [medium(`runs the script ${file.target}`)];
  return [medium(args.length > 0 ? `runs ${name} ${args.join(' ')}` : `starts an interactive ${name}`)];
}

const shell: ProgramRule = (args, env, name) => {
  const commandIndex = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  if (commandIndex !== -1) {
    const script = args.slice(commandIndex + 1).find((a) => !a.startsWith('-')) ?? '';
    if (isDynamic(script)) return [high(`${name} -c runs code built at run time, which cannot be checked`)];
    return env.ctx.analyzeText(script);
  }
  const script = operands(args, ['-o', '-O', '+O', '--rcfile', '--init-file'])[0];
  if (script === undefined || script === '-' || hasOption(args, 's')) return stdinCode(env, name, true, args);
  if (hasSubstitution(script)) return [high(`${name} runs a script produced by another command`)];
  return [medium(`runs the script ${script}`)];
};

const evalCommand: ProgramRule = (args, env) => {
  const text = args.join(' ');
  if (isDynamic(text) || text.includes('$'))
    return [high('eval runs text built at run time, which cannot be checked')];
  return env.ctx.analyzeText(text);
};

const source: ProgramRule = (args) => {
  const file = args[0] ?? '';
  if (hasSubstitution(file)) return [high('sources a script produced by another command')];
  return [medium(`runs the commands in ${file} in this shell`)];
};

const interpreter: ProgramRule = (args, env, name) => {
  if (args.length > 0 && args.every((a) => /^(-V|--version|-v|-h|--help|-VV)$/.test(a))) {
    return [low(`${name} only prints its version or help`)];
  }
  const inline = args.findIndex(
    (a) => /^(-c|-e|-E|--eval|-p|--print|-r|-pe|-ne|-pie|-lne)$/.test(a) || /^-[a-zA-Z]*e$/.test(a),
  );
  if (inline !== -1) return [medium(`runs inline ${name} code`)];
  const moduleIndex = args.indexOf('-m');
  if (moduleIndex !== -1) return [medium(`runs the ${name} module ${args[moduleIndex + 1] ?? ''}`.trim())];
  const script = operands(args, ['-W', '-X', '--import', '--require', '-r', '--loader'])[0];
  if (script === undefined || script === '-') return stdinCode(env, name, false, args);
  if (hasSubstitution(script)) return [high(`${name} runs a script produced by another command`)];
  return [medium(`runs ${script} with ${name}`)];
};

/** `watch cmd args`: the words are joined and run by `sh -c` (as given with -x/--exec). */
const watch: ProgramRule = (args, env, name) => {
  const rest = afterOptions(args, ['-n', '--interval', '-d', '-q', '--equexit']);
  if (rest.length === 0) return [low(`${name} alone does nothing risky`)];
  if (hasOption(args, 'x', 'exec')) return env.ctx.analyzeArgv(rest, env.site, env.command);
  return env.ctx.analyzeText(rest.join(' '));
};

/**
 * alias and trap store shell code that runs later, under a harmless name or on a signal: the code
 * is judged now, and storing it is at least MEDIUM since later commands cannot be judged by name.
 */
const storesCode: ProgramRule = (args, env, name) => {
  const options = args.filter((a) => a.startsWith('-'));
  const words = args.filter((a) => !a.startsWith('-'));
  if (name === 'alias') {
    const bodies = words.filter((w) => w.includes('=')).map((w) => w.slice(w.indexOf('=') + 1));
    if (bodies.length === 0) return [low('alias only lists aliases')];
    return [
      medium('defines an alias, which changes what later commands run'),
      ...bodies.flatMap((b) => env.ctx.analyzeText(b)),
    ];
  }
  if (words.length < 2 || options.some((o) => /^-[lp]$/.test(o)))
    return [lowChange('trap only lists or resets')];
  const code = words[0]!;
  if (code === '-' || code === '') return [lowChange('trap only resets a signal handler')];
  const judged = isDynamic(code)
    ? [high('trap runs code built at run time, which cannot be checked')]
    : env.ctx.analyzeText(code);
  return [medium('sets a trap, which runs code later'), ...judged];
};

const commandBuiltin: ProgramRule = (args, env, name) => {
  if (args[0] === '-v' || args[0] === '-V') return [low(`${name} -v only looks a command up`)];
  return wrapper([])(args, env, name);
};

const RULES: Record<string, ProgramRule> = {
  ...FILE_RULES,
  ...PACKAGE_RULES,
  ...SYSTEM_RULES,
  git,
  sudo,
  doas: sudo,
  su: () => [high('switches to another user')],
  ...VARIABLE_RULES,
  ...PROCESS_RULES,
  printenv: () => [printsEnvironment()],
  nohup: wrapper([]),
  time: wrapper([]),
  builtin: wrapper([]),
  exec: wrapper(['-a']),
  command: commandBuiltin,
  nice: wrapper(['-n', '--adjustment']),
  ionice: wrapper(['-c', '-n', '-p', '-t']),
  stdbuf: wrapper(['-i', '-o', '-e']),
  timeout: wrapper(['-s', '-k', '--signal', '--kill-after'], 1),
  watch,
  alias: storesCode,
  trap: storesCode,
  xargs: wrapper([
    '-I',
    '-n',
    '-L',
    '-P',
    '-d',
    '-E',
    '-s',
    '-a',
    '--max-args',
    '--max-procs',
    '--delimiter',
  ]),
  eval: evalCommand,
  source,
  '.': source,
};

export function programFindings(word: string, args: readonly string[], env: RuleEnv): Finding[] {
  if (word === '') return [];
  const own = ruleFindings(word, args, env);
  const name = programName(word);
  const script = name === 'sed' || name === 'gsed' ? sedScriptFindings(args, env.ctx) : [];
  return [...own, ...script, ...programOptionFindings(name, args)];
}

function ruleFindings(word: string, args: readonly string[], env: RuleEnv): Finding[] {
  // `{rm,-rf,~}` is brace-expanded into the words `rm -rf ~`.
  const braced = /^\{([^{}]*,[^{}]*)\}$/.exec(word);
  if (braced) return env.ctx.analyzeArgv([...braced[1]!.split(','), ...args], env.site, env.command);
  if (hasSubstitution(word) || word.startsWith('$'))
    return [high('runs a program whose name is decided at run time')];
  const name = programName(word);
  // Own properties only: a command named `toString` or `constructor` must not find Object's.
  const rule = Object.hasOwn(RULES, name) ? RULES[name] : undefined;
  if (rule) return rule(args, env, name);
  if (SHELLS.has(name)) return shell(args, env, name);
  if (INTERPRETER.test(name)) return interpreter(args, env, name);
  if (name.startsWith('mkfs.')) return [high(`${name} creates a file system, erasing the device`)];
  if (READ_ONLY.has(name)) {
    const writes = Object.hasOwn(WRITING_OPTIONS, name) ? WRITING_OPTIONS[name]!(args, env) : [];
    return writes.length > 0 ? writes : [low(`${name} only reads`)];
  }
  if (SHELL_BUILTINS.has(name))
    return [(SHELL_CHANGES.has(name) ? lowChange : low)(`${name} only affects the shell`)];
  if (word.includes('/')) return [medium(`runs ${word}, which cannot be checked`)];
  return [medium(`${name} is not a command known to be safe`)];
}
