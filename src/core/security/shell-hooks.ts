// Commands that would leave a hook in a persistent shell: state that makes a later command run
// something else than what the log records (a prompt that runs code, a trap, an alias, a hashed
// path, a function named like a command, a disabled builtin, a startup file of later shells). A
// shell Logbook starts itself undoes these after every command; the user's own shell in an
// integrated terminal cannot be reset that way (VS Code's shell integration lives in the same
// hooks), so there such commands are refused. A command whose hooks cannot be read before it runs
// is refused too: `eval` of a string built at run time, `source` of a stream or of a file that
// cannot be read, a command name decided at run time, text the parser cannot read. A readable
// sourced file is read and checked like the command itself.
import * as path from 'node:path';
import { allCommands, hasSubstitution, parseShell, ShellParseError, type SimpleCommand } from './shell-parse';
import { NOT_FOUND_HANDLERS, SHELL_WORDS } from './shell-words';

/** What the check may look at outside the command: the shell's folder, PATH and sourced files. */
export interface HookCheckContext {
  /** The shell's working folder: relative sourced files are found from it. */
  cwd?: string;
  /** The shell's home folder, for `~`. */
  home?: string;
  /** PATH folders: `source name` looks there first (bash's sourcepath). */
  pathDirs: readonly string[];
  /** Whether a regular file is at this absolute path. */
  isFile(file: string): boolean;
  /** The text of a sourced file; undefined when it is not a regular file within the size bound. */
  readScript(file: string): string | undefined;
  /** Whether an executable `name` is in a PATH folder: a function of that name would shadow it. */
  isProgram(name: string): boolean;
}

/** Without a context nothing outside the command is known: no file is read, every function counts. */
const UNKNOWN_SURROUNDINGS: HookCheckContext = {
  pathDirs: [],
  isFile: () => false,
  readScript: () => undefined,
  isProgram: () => true,
};

/** Variables whose value a later prompt, shell or hook runs as code whatever it is. */
const ALWAYS_HOOKS = new Set([
  'PS0',
  'PROMPT_COMMAND',
  'BASH_ENV',
  'ENV',
  'precmd_functions',
  'preexec_functions',
  'chpwd_functions',
]);

/**
 * Prompts: bash (promptvars) and zsh (prompt_subst) expand them again at each prompt, so they run
 * code only when their value still holds a substitution after the assignment.
 */
const PROMPTS = new Set(['PS1', 'PS2', 'PS3', 'PS4', 'PROMPT', 'RPROMPT', 'RPS1', 'PROMPT2']);

const isHookVariable = (name: string) =>
  ALWAYS_HOOKS.has(name) || PROMPTS.has(name) || name.startsWith('BASH_FUNC_');

/** Builtins that declare variables named by their arguments (`NAME` or `NAME=value`). */
const DECLARES = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** Builtins that set variables named by their arguments to what they read at run time. */
const READS_INTO = new Set(['read', 'mapfile', 'readarray']);
/** Builtins whose arguments decide which hook they plant: they must be literal to be checked. */
const LITERAL_ARGUMENTS = new Set(['trap', 'alias', 'hash', 'enable', 'shopt', 'set', 'zle', ...READS_INTO]);

/** Functions a shell calls by itself: zsh's hook functions and trap functions. */
const CALLED_BY_SHELL = new Set([
  ...NOT_FOUND_HANDLERS,
  'precmd',
  'preexec',
  'chpwd',
  'periodic',
  'zshaddhistory',
  'zshexit',
]);
const SHELL_WORD_SET = new Set(SHELL_WORDS.split(' '));

const MAX_NESTING = 8;

// What an expansion the shell performs becomes in a parsed word: private-use characters around
// its text, so it is told from a `$` that quotes keep literal.
const OPEN = '\u{E000}';
const CLOSE = '\u{E001}';
const EXPANSION = /\u{E000}([^\u{E001}]*)\u{E001}/gu;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** What hook `command` would plant, in a few words; undefined when it plants none. */
export function shellHookIn(
  command: string,
  context: HookCheckContext = UNKNOWN_SURROUNDINGS,
): string | undefined {
  return new HookCheck(context).script(command, 0);
}

class HookCheck {
  /** Folders the shell may be in at this point; undefined once a `cd` went somewhere unknown. */
  private cwds: string[] | undefined;

  constructor(private readonly context: HookCheckContext) {
    this.cwds = context.cwd ? [context.cwd] : undefined;
  }

  script(text: string, nesting: number): string | undefined {
    let commands: SimpleCommand[];
    try {
      const script = parseShell(text, 0, { expansion: (inner) => `${OPEN}${inner}${CLOSE}` });
      if (script.incomplete)
        return 'is incomplete (a quote or substitution is left open), so it cannot be checked';
      commands = allCommands(script);
    } catch (err) {
      if (err instanceof ShellParseError) return `cannot be read to check it (${err.message})`;
      throw err;
    }
    const known = new KnownValues(commands);
    for (const c of commands) {
      const found = this.command(c, known, nesting);
      if (found) return found;
    }
    return undefined;
  }

  private command(c: SimpleCommand, known: KnownValues, nesting: number): string | undefined {
    if (c.definesFunction !== undefined) return this.functionHook(c.definesFunction);
    for (const assignment of c.assignments) {
      const found = assignmentHook(assignment, known);
      if (found) return found;
    }
    let argv = c.argv;
    while (argv[0] === 'builtin' || (argv[0] === 'command' && !/^-[vV]/.test(argv[1] ?? ''))) {
      argv = argv.slice(1);
      if (argv[0] === '-p') argv = argv.slice(1);
    }
    const [name, ...args] = argv;
    if (name === undefined) return undefined;
    if (isRunTime(name)) return `runs a command whose name is decided at run time (${shown(name)})`;
    if (LITERAL_ARGUMENTS.has(name)) {
      const options = name === 'set' ? args.slice(0, Math.max(0, args.indexOf('--'))) : args;
      const late = (name === 'set' && !args.includes('--') ? args : options).find(isRunTime);
      if (late !== undefined) return `runs ${name} with an argument decided at run time (${shown(late)})`;
    }
    if (DECLARES.has(name)) return declarationHook(name, args, known, (f) => this.functionHook(f));
    if (READS_INTO.has(name)) {
      const variable = args.find((a) => isHookVariable(a));
      if (variable) return `sets ${variable} to what it reads`;
    }
    if (name === 'printf') {
      const target = args[args.indexOf('-v') + 1];
      if (args.includes('-v') && target !== undefined) {
        if (isRunTime(target)) return `sets a variable whose name is decided at run time (${shown(target)})`;
        const variable = variableName(`${target}=`) ?? target;
        if (isHookVariable(variable)) return `sets ${variable} to printf's output`;
      }
    }
    if (name === 'eval') {
      const late = args.find(isRunTime);
      if (late !== undefined) return `runs code built at run time (eval ${shown(late)})`;
      if (nesting >= MAX_NESTING) return 'nests eval and source too deeply to check';
      return this.script(args.join(' '), nesting + 1);
    }
    if (name === 'source' || name === '.')
      return this.sourceHook(args[0] === '--' ? args[1] : args[0], nesting);
    if (name === 'cd' || name === 'pushd' || name === 'popd') this.changeFolder(name, args);
    return builtinHook(name, args) ?? (name === 'function' ? this.functionHook(args[0] ?? '') : undefined);
  }

  /** A function is a hook when the shell would call it instead of a command, or by itself. */
  private functionHook(name: string): string | undefined {
    const bare = name.replace(/\(\)$/, '');
    if (isRunTime(bare)) return `defines a function whose name is decided at run time (${shown(bare)})`;
    if (SHELL_WORD_SET.has(bare))
      return `defines the function ${bare}, named like a shell builtin or keyword`;
    if (CALLED_BY_SHELL.has(bare) || /^TRAP[A-Z0-9]+$/.test(bare))
      return `defines the function ${bare}, which the shell calls by itself`;
    if (bare.includes('/') || this.context.isProgram(bare))
      return `defines the function ${bare}, named like a program on PATH`;
    return undefined;
  }

  private sourceHook(target: string | undefined, nesting: number): string | undefined {
    if (target === undefined) return undefined; // `source` alone fails and runs nothing
    if (isRunTime(target)) return `sources code from ${shown(target)}, which cannot be read before it runs`;
    if (/^\/(dev|proc)\//.test(target) || target === '-')
      return `sources code from a stream (${target}), which cannot be read before it runs`;
    const candidates = this.sourceCandidates(target);
    if (candidates === undefined)
      return `sources ${target} from a folder that cannot be told before it runs, so it cannot be checked`;
    const present = candidates.filter((file) => this.context.isFile(file));
    if (present.length === 0) return `sources ${target}, which cannot be found to check it`;
    if (nesting >= MAX_NESTING) return 'nests eval and source too deeply to check';
    for (const file of present) {
      const text = this.context.readScript(file);
      if (text === undefined)
        return `sources ${target}, which cannot be read to check it (not a regular file, or too large)`;
      const found = this.script(text, nesting + 1);
      if (found) return `sources ${target}, which ${found}`;
    }
    return undefined;
  }

  /** The files `source target` may read: bash looks in PATH first for a bare name, then the folder. */
  private sourceCandidates(target: string): string[] | undefined {
    const expanded = this.tilde(target);
    if (expanded === undefined) return undefined;
    if (path.isAbsolute(expanded)) return [expanded];
    if (!expanded.includes('/')) {
      const inPath = this.context.pathDirs
        .map((dir) => path.join(dir, expanded))
        .find((file) => this.context.isFile(file));
      if (inPath) return [inPath];
    }
    return this.cwds?.map((dir) => path.resolve(dir, expanded));
  }

  /** Follows `cd` as far as it can be read: each literal folder joins the places the shell may be. */
  private changeFolder(name: string, args: string[]): void {
    const operands = args.filter((a) => !/^-[LPe@]+$/.test(a) && a !== '--');
    const target = name === 'popd' ? undefined : operands.length === 0 ? '~' : operands[0];
    const expanded =
      target === undefined || target === '-' || isRunTime(target) ? undefined : this.tilde(target);
    if (expanded === undefined || this.cwds === undefined) {
      this.cwds = undefined;
      return;
    }
    const next = this.cwds.map((dir) => path.resolve(dir, expanded));
    this.cwds = [...new Set([...this.cwds, ...next])];
  }

  private tilde(word: string): string | undefined {
    if (word !== '~' && !word.startsWith('~/')) return word.startsWith('~') ? undefined : word;
    return this.context.home === undefined ? undefined : this.context.home + word.slice(1);
  }
}

/**
 * Values this text assigns to plain variables, to tell whether a prompt built from one of them
 * (`PS1="$_OLD_PS1"`) can hold code: only when every value the text gives it is known and safe.
 */
class KnownValues {
  private readonly values = new Map<string, string[]>();
  private readonly verdicts = new Map<string, boolean>();

  constructor(commands: SimpleCommand[]) {
    for (const c of commands) {
      const words = [...c.assignments, ...(DECLARES.has(c.argv[0] ?? '') ? c.argv.slice(1) : [])];
      for (const word of words) {
        const name = variableName(word);
        if (name) this.values.set(name, [...(this.values.get(name) ?? []), valueOf(word)]);
      }
    }
  }

  /** A variable whose value cannot carry code into a prompt. */
  safe(name: string): boolean {
    if (isHookVariable(name)) return true; // its current value passed this check, or is the user's own
    const verdict = this.verdicts.get(name);
    if (verdict !== undefined) return verdict;
    this.verdicts.set(name, false); // a value built from itself depends on what it held before
    const values = this.values.get(name);
    const safe = values !== undefined && values.every((v) => promptCode(v, this) === undefined);
    this.verdicts.set(name, safe);
    return safe;
  }
}

function assignmentHook(word: string, known: KnownValues): string | undefined {
  const name = variableName(word);
  if (name === undefined) return undefined;
  if (name.startsWith('BASH_FUNC_')) return `sets ${name}, a function later bash shells import`;
  if (ALWAYS_HOOKS.has(name)) return `sets ${name}`;
  if (PROMPTS.has(name)) {
    const code = promptCode(valueOf(word), known);
    if (code) return `sets ${name} ${code}`;
  }
  return undefined;
}

function declarationHook(
  builtin: string,
  args: string[],
  known: KnownValues,
  functionHook: (name: string) => string | undefined,
): string | undefined {
  let flags = builtin === 'export' ? 'x' : builtin === 'readonly' ? 'r' : '';
  let operands = false;
  for (const arg of args) {
    if (!operands && arg === '--') {
      operands = true;
      continue;
    }
    if (!operands && /^[-+]/.test(arg)) {
      flags += arg.slice(1);
      continue;
    }
    operands = true;
    if (isRunTime(arg.split('=')[0] ?? arg))
      return `declares a variable whose name is decided at run time (${shown(arg)})`;
    if (arg.startsWith('BASH_FUNC_')) return `sets ${arg.split('=')[0]}, a function later bash shells import`;
    if (flags.includes('f')) {
      // Function names: only exporting one reaches later (child) shells.
      if (flags.includes('x')) {
        const found = functionHook(arg);
        if (found) return `exports a function to child shells: ${found.replace(/^defines /, '')}`;
      }
      continue;
    }
    const name = variableName(arg);
    if (flags.includes('n')) {
      const target = arg.includes('=') ? valueOf(arg) : undefined;
      if (
        isHookVariable(name ?? arg) ||
        (target !== undefined && (isHookVariable(target) || isRunTime(target)))
      )
        return `makes ${name ?? arg} a reference to another variable (${shown(target ?? arg)})`;
      continue;
    }
    if (name !== undefined) {
      const found = assignmentHook(arg, known);
      if (found) return found;
    } else if (isHookVariable(arg) && flags.replace(/[xg]/g, '') !== '') {
      return `changes the attributes of ${arg} (${builtin} -${flags})`;
    }
  }
  return undefined;
}

/** Hooks of builtins whose arguments say it all (they are literal here). */
function builtinHook(name: string, args: string[]): string | undefined {
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
  return undefined;
}

/**
 * Why a prompt with this value (as assigned: quotes removed, the shell's expansions marked) would
 * run code at each prompt, or undefined. The prompt expands its value again: a `$(…)` or backtick
 * kept literal by quotes runs then, as does arithmetic (`$[…]`, a subscript, a `${x:offset}`) or a
 * `${x@P}`, which can run code held in another variable. What the assignment itself expands is
 * copied in as text; that text is safe when it comes from a variable known to be safe.
 */
function promptCode(value: string, known: KnownValues): string | undefined {
  if (hasSubstitution(value)) return "to a command's output, which cannot be read before it runs";
  for (const match of value.matchAll(EXPANSION)) {
    const inner = match[1] ?? '';
    const names = [
      NAME.exec(inner)?.[0],
      ...[...inner.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]),
    ];
    if (names[0] === undefined) return `from $${inner}, whose value cannot be read before it runs`;
    const unknown = names.find((n) => n !== undefined && !known.safe(n));
    if (unknown) return `from $${unknown}, whose value cannot be read before it runs`;
    if (/[`]|\$[([]/.test(inner)) return `from an expansion that runs code (\${${inner}})`;
  }
  const literal = value.replace(EXPANSION, '');
  if (/\$\(|`|\$\[/.test(literal)) return 'to code that runs at each prompt';
  for (const brace of literal.matchAll(/\$\{([^}]*)\}?/g)) {
    if (!plainBraceExpansion(brace[1] ?? '')) return `to \${${brace[1]}}, which can run code at each prompt`;
  }
  return undefined;
}

/** `${NAME}`, `${#NAME}`, `${NAME:-word}`, `${NAME%pattern}` and the like, without arithmetic. */
function plainBraceExpansion(inner: string): boolean {
  const name = /^#?[A-Za-z_][A-Za-z0-9_]*/.exec(inner)?.[0];
  if (name === undefined) return false; // `${!x}`, `${1}`, special parameters
  const operator = inner.slice(name.length);
  if (operator === '') return true;
  if (/\$[{[]/.test(operator)) return false; // a nested expansion: read no further
  // Defaults, pattern removal and replacement, case changes; not a subscript, a substring offset
  // (both arithmetic) or an @ transformation.
  return /^(:?[-+=?]|%|#|\/|\^|,)/.test(operator);
}

/** `NAME` of `NAME=…`, `NAME+=…` or `NAME[i]=…`. */
function variableName(word: string): string | undefined {
  return /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/.exec(word)?.[1];
}

function valueOf(word: string): string {
  return word.slice(word.indexOf('=') + 1);
}

/** A word the shell completes at run time: an expansion or a substitution in it. */
function isRunTime(word: string): boolean {
  return word.includes(OPEN) || hasSubstitution(word);
}

/** A word as it was written, near enough to name in a message. */
function shown(word: string): string {
  return word.replace(EXPANSION, (_, inner: string) => `\${${inner}}`).replace(/__LBSUB_\d+__/g, '$(…)');
}
