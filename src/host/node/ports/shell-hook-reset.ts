// Bash code that undoes, after every command, the state a command can leave behind to make a
// later command run something else than what the log records: prompt hooks (PS0, PS1 with
// `$(…)`, PROMPT_COMMAND), traps (DEBUG, RETURN, ERR, signals), aliases, hashed paths, functions
// that shadow a command or catch a missing one, disabled builtins, tracing options (functrace,
// extdebug, xtrace with PS4) and startup files of later shells (BASH_ENV, ENV).
//
// It runs on the same line as the command, after it: the line was read before the command ran,
// so aliases the command defines cannot change it, and prompt hooks are gone before the shell
// prints its next prompt. The command may have shadowed the builtins used here with functions,
// so it first enters POSIX mode by an assignment (which no function or alias can intercept): there
// special builtins such as `unset` and `trap` are found before functions, and `unset -f` then
// removes the functions in the way of the others. What cannot be undone from inside (a readonly
// PS1, a readonly function, a disabled `enable`) is reported through `$__logbook_taint`, and the
// host then replaces the shell.
import { SHELL_WORDS } from '../../../core/security/shell-words';

/** Builtins the reset itself calls, so their shadowing functions go first. */
const RESET_BUILTINS =
  'builtin command enable shopt hash unalias compgen type printf echo eval set trap unset export ' +
  'readonly return exec exit source . : command_not_found_handle';

/** Variables whose value a later prompt, trace or shell runs as code. */
const HOOK_VARIABLES = 'PS0 PS1 PS2 PS3 PS4 PROMPT_COMMAND BASH_ENV ENV';

/** Every signal number a trap can name on Linux and macOS, plus bash's pseudo-signals. */
const TRAPS = `DEBUG RETURN ERR EXIT ${Array.from({ length: 64 }, (_, i) => i + 1).join(' ')}`;

/** The variable holding the command's exit status once the reset ran. */
export const STATUS_VARIABLE = '__logbook_status';
/** The variable that is non-empty when some hook could not be undone (letters say which kind). */
export const TAINT_VARIABLE = '__logbook_taint';
/** The variable listing, after a command, the exported names it set, changed or removed. */
export const CARRIED_VARIABLE = '__logbook_carried';

export interface HookResetOptions {
  /** Shell code run after the traps were cleared, e.g. a trap the host relies on. */
  afterTraps?: string;
}

/**
 * Bash code (one line, no trailing separator) that saves `$?` in STATUS_VARIABLE, undoes every
 * hook and leaves TAINT_VARIABLE empty, or naming what it could not undo.
 */
export function hookResetCode(options: HookResetOptions = {}): string {
  const t = TAINT_VARIABLE;
  const steps = [
    `${STATUS_VARIABLE}=$?`,
    `${t}=`,
    'POSIXLY_CORRECT=y',
    `trap -- - ${TRAPS} 2>/dev/null`,
    ...(options.afterTraps ? [options.afterTraps] : []),
    `unset -f ${RESET_BUILTINS} 2>/dev/null || ${t}=\${${t}}f`,
    `builtin enable ${SHELL_WORDS.split(' ')
      .filter((w) => /^[a-z]/.test(w) && !RESERVED.has(w))
      .join(' ')} 2>/dev/null`,
    `builtin compgen -A disabled >/dev/null 2>&1 && ${t}=\${${t}}e`,
    'builtin unalias -a 2>/dev/null',
    'builtin hash -r 2>/dev/null',
    'set +o functrace +o errtrace +o xtrace +o verbose 2>/dev/null',
    'builtin shopt -u extdebug 2>/dev/null',
    `unset ${HOOK_VARIABLES} 2>/dev/null || ${t}=\${${t}}v`,
    "PS4='+ '",
    // Only when there are functions at all (the substitution costs a fork): those shadowing a
    // builtin, a reserved word or a program on PATH go; the command's own helpers stay.
    `if builtin compgen -A function >/dev/null 2>&1; then for __logbook_f in $(builtin compgen -A function); do ` +
      `if [[ " ${SHELL_WORDS} " == *" $__logbook_f "* ]] || builtin type -P -- "$__logbook_f" >/dev/null 2>&1; ` +
      `then unset -f -- "$__logbook_f" 2>/dev/null || ${t}=\${${t}}f; fi; done; unset __logbook_f; fi`,
    'unset POSIXLY_CORRECT',
  ];
  return steps.join('; ');
}

const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
]);

/** What a taint's letters mean, for the note the model reads when its shell is replaced. */
export function taintText(taint: string): string {
  const kinds: string[] = [];
  if (taint.includes('f')) kinds.push('a function that cannot be removed');
  if (taint.includes('e')) kinds.push('a builtin that cannot be enabled again');
  if (taint.includes('v')) kinds.push('a readonly prompt or startup variable');
  return kinds.length ? kinds.join(', ') : 'a hook that could not be undone';
}
