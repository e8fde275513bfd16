// Commands that would leave a hook in a persistent shell: state that makes a later command run
// something else than what the log records (a prompt that runs code, a trap, an alias, a hashed
// path, a function, a disabled builtin, a startup file of later shells). A shell Logbook starts
// itself undoes these after every command; the user's own shell in an integrated terminal cannot
// be reset that way (VS Code's shell integration lives in the same hooks), so there such commands
// are refused in the forms read here. A string built at run time (`eval "$x"`) is not seen.
import { allCommands, parseShell, ShellParseError, type SimpleCommand } from './shell-parse';

/** Variables a later prompt, trace or shell runs as code (bash, zsh, POSIX sh). */
const HOOK_VARIABLES = new Set([
  'PS0',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'PROMPT_COMMAND',
  'BASH_ENV',
  'ENV',
  'PROMPT',
  'RPROMPT',
  'RPS1',
  'PROMPT2',
  'precmd_functions',
  'preexec_functions',
  'chpwd_functions',
]);

/** Builtins that set a variable named by one of their arguments. */
const SETS_NAMED_VARIABLE = new Set([
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'read',
  'printf',
  'mapfile',
  'readarray',
]);

/** What hook `command` would plant, in a few words; undefined when it plants none that is visible. */
export function shellHookIn(command: string): string | undefined {
  let commands: SimpleCommand[];
  try {
    commands = allCommands(parseShell(command));
  } catch (err) {
    if (err instanceof ShellParseError) return undefined;
    throw err;
  }
  for (const c of commands) {
    const found = hookOf(c);
    if (found) return found;
  }
  return undefined;
}

function hookOf(c: SimpleCommand): string | undefined {
  if (c.definesFunction !== undefined) return `defines the function ${c.definesFunction}`;
  for (const assignment of c.assignments) {
    const name = variableName(assignment);
    if (name && HOOK_VARIABLES.has(name)) return `sets ${name}`;
  }
  let argv = c.argv;
  while (argv[0] === 'builtin' || argv[0] === 'command') argv = argv.slice(1);
  const [name, ...args] = argv;
  if (name === undefined) return undefined;
  if (SETS_NAMED_VARIABLE.has(name)) {
    for (const arg of args) {
      const variable = variableName(arg) ?? arg;
      if (HOOK_VARIABLES.has(variable)) return `sets ${variable}`;
    }
  }
  if (name === 'eval') return shellHookIn(args.join(' '));
  if (name === 'trap') {
    const rest = args[0] === '--' ? args.slice(1) : args;
    if (rest.length >= 2 && rest[0] !== '-' && !/^-[lp]$/.test(rest[0]!))
      return `sets a trap on ${rest.slice(1).join(' ')}`;
  }
  if (name === 'alias' && args.some((a) => a.includes('='))) return 'defines an alias';
  if (name === 'hash' && args.some((a) => /^-\w*p/.test(a))) return 'plants a hashed path (hash -p)';
  if (name === 'enable' && args.some((a) => !/^-[aps]+$/.test(a)))
    return 'enables, disables or loads builtins';
  if (name === 'set' && args.some((a) => /^-\w*[TE]/.test(a) || a === 'functrace' || a === 'errtrace'))
    return 'makes traps reach functions (functrace, errtrace)';
  if (name === 'shopt' && args.includes('-s') && args.includes('extdebug')) return 'turns on extdebug';
  if (name === 'add-zsh-hook' || (name === 'zle' && args.includes('-N'))) return 'adds a zsh hook';
  if (name === 'function') return `defines the function ${args[0] ?? ''}`.trim();
  return undefined;
}

/** `NAME` of `NAME=…`, `NAME+=…` or `NAME[i]=…`. */
function variableName(word: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/.exec(word)?.[1];
}
