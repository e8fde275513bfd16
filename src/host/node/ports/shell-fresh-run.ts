// Every command runs in a fresh child bash (no startup files) started by the persistent shell, so
// no trap, alias, function, PROMPT_COMMAND or shell option of one call is there in the next. What
// does carry is explicit: when the child exits, it writes its working folder and its exported
// variables (NUL-separated, as data) to a state file; the persistent shell reads them back without
// running any of it, and the next child inherits them. Variables that are shell options or startup
// hooks in disguise (SHELLOPTS, BASHOPTS, BASH_ENV, ENV, prompts, ...) never carry. A shell that
// reads the user's startup file reads it once, when it starts, as an editor's terminal does: what
// it exports carries; reading it again before each command would put its PATH back in front of
// what a command chose (a virtualenv's, say).
//
// The persistent shell stays: input still reaches the running command through its stdin, and
// Ctrl+C still reaches the child, which shares the shell's process group.
//
// Both hosts use this: the CLI's shell and the editor's fallback shell get the setup as a line;
// the editor's own terminal, whose lines the user sees, gets the same functions through its
// environment (freshRunEnvironment).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CARRIED_VARIABLE } from './shell-hook-reset';
import { shellQuote } from './shell-sentinel';

/**
 * Names never carried from one command to the next (a `case` pattern list): shell options and
 * startup code in disguise, and what would change the long-lived shell itself (its word
 * splitting, an idle timeout that ends it, its history, the editor's integration).
 */
const NOT_CARRIED =
  'BASH*|SHELLOPTS|POSIXLY_CORRECT|ENV|PS[0-4]|PROMPT_COMMAND|SHLVL|_|PWD|OLDPWD|__logbook*|' +
  'IFS|TMOUT|HIST*|GLOBIGNORE|EXECIGNORE|FUNCNEST|INPUTRC|PROMPT_DIRTRIM|VSCODE_*';

/** The function a shell reads a child's state back with (see carryFunctionBody). */
const CARRY_FUNCTION = '__logbook_carry_in';
/** The function a shell started with freshRunEnvironment runs a command with: `NAME 'command'`. */
export const FRESH_RUN_FUNCTION = '__logbook_run';
/** The variable naming the state file in such a shell. */
const STATE_FILE_VARIABLE = '__logbook_state';
/** The state file of the run going on: the base name with a suffix of its own. */
const STATE_RUN_VARIABLE = '__logbook_run_state';
/**
 * Set by a shell that survives Ctrl+C (a non-interactive one, whose INT trap sets it); an
 * interactive shell abandons the whole line instead, and never reads the state back.
 */
export const STOPPED_VARIABLE = '__logbook_stopped';

/**
 * The child's script: `$1` is the state file, `$2` the command. The EXIT trap also covers `exit`
 * inside the command; a command that replaces the trap simply carries nothing.
 */
function childScript(): string {
  const save =
    // The command's own DEBUG trap or tracing must not write into the state.
    // noclobber: the file is created here, never written through a link or over a file put in its
    // place (the command could plant one; the write would land outside).
    '__logbook_s=$?; builtin trap - DEBUG RETURN ERR; builtin set +o xtrace +o verbose -o noclobber; { builtin printf "%s\\0" "$PWD"; for __logbook_n in $(builtin compgen -e); do ' +
    'builtin printf "%s=%s\\0" "$__logbook_n" "${!__logbook_n}"; done; } > "$__logbook_file"; ' +
    'builtin exit "$__logbook_s"';
  return [
    '__logbook_file=$1',
    // Inherited from freshRunEnvironment: not the command's to see or run.
    `builtin unset -f ${CARRY_FUNCTION} ${FRESH_RUN_FUNCTION} 2>/dev/null; builtin unset -v ${STATE_FILE_VARIABLE}`,
    `builtin trap ${shellQuote(save)} EXIT`,
    // As in the interactive shell the commands were written for: aliases work within one call.
    'builtin shopt -s expand_aliases',
    'builtin eval "$2"',
  ].join('\n');
}

/**
 * The body (braces included) of the function that reads a child's state file back in the shell
 * that started it (`$1` the file, `$2` the child's status, which it returns).
 */
function carryFunctionBody(): string {
  return (
    '{ local __logbook_s=$2 __logbook_e __logbook_n __logbook_d= __logbook_seen=" "; ' +
    `${CARRIED_VARIABLE}=; ` +
    // A state that does not start with an absolute folder is not one the child wrote, and a command
    // stopped by Ctrl+C (the shell's INT trap sets STOPPED_VARIABLE) carries nothing either.
    // Only a regular file of this user, not a link: one put in its place is not read through.
    `if [[ -z \${${STOPPED_VARIABLE}-} && -f $1 && ! -L $1 && -O $1 && -s $1 ]] && IFS= builtin read -r -d "" __logbook_d < "$1" && [[ $__logbook_d == /* ]]; then ` +
    '{ IFS= builtin read -r -d "" __logbook_d; ' +
    'while IFS= builtin read -r -d "" __logbook_e; do __logbook_n=${__logbook_e%%=*}; ' +
    '[[ $__logbook_n =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue; ' +
    `case $__logbook_n in ${NOT_CARRIED}) continue;; esac; ` +
    '__logbook_seen+="$__logbook_n "; ' +
    '[[ ${!__logbook_n+set} == set && ${!__logbook_n} == "${__logbook_e#*=}" ]] && continue; ' +
    `${CARRIED_VARIABLE}+="$__logbook_n,"; ` +
    'builtin export "$__logbook_n=${__logbook_e#*=}" 2>/dev/null; done; } < "$1"; ' +
    'for __logbook_n in $(builtin compgen -e); do ' +
    `case $__logbook_n in ${NOT_CARRIED}) continue;; esac; ` +
    '[[ $__logbook_seen == *" $__logbook_n "* ]] && continue; ' +
    `builtin unset -v "$__logbook_n" 2>/dev/null && ${CARRIED_VARIABLE}+="$__logbook_n,"; done; ` +
    '[[ -n $__logbook_d ]] && builtin cd -- "$__logbook_d" 2>/dev/null; fi; ' +
    'builtin return "$__logbook_s"; }'
  );
}

/**
 * Shell code defining, in the persistent shell, the function that reads a child's state file back
 * (`$1` the file, `$2` the child's status, which it returns). Run once when the shell starts.
 */
export function carryFunctionCode(): string {
  return `${CARRY_FUNCTION}() ${carryFunctionBody()}`;
}

/** Shell words of one fresh run: each is inserted as is, so each must be quoted already. */
interface FreshRunWords {
  command: string;
  stateFile: string;
  /** The bash that starts the child. */
  bash: string;
}

function freshRun(words: FreshRunWords): string {
  // Each run's state file is a new name the child creates (no earlier command knew it, so none
  // could have put a link there); the persistent shell never writes it.
  const file = `${words.stateFile}.$SRANDOM$RANDOM$RANDOM`;
  return (
    `${CARRIED_VARIABLE}= ${STOPPED_VARIABLE}= ${STATE_RUN_VARIABLE}=${file}; ${words.bash} --norc --noprofile -c ${shellQuote(childScript())} ` +
    `bash "$${STATE_RUN_VARIABLE}" ${words.command}; ${CARRY_FUNCTION} "$${STATE_RUN_VARIABLE}" $?`
  );
}

/** Shell code (one line) running `command` in a fresh child and reading its state back. */
export function freshRunCode(command: string, stateFile: string): string {
  return freshRun({
    command: shellQuote(command),
    stateFile: shellQuote(stateFile),
    bash: '"$__logbook_bash"',
  });
}

/**
 * Environment variables that give a bash started with them (and only bash) the functions that
 * run a command fresh, for a shell Logbook cannot send setup lines to unseen (the editor's
 * terminal): bash defines a function from each `BASH_FUNC_<name>%%` variable. `FRESH_RUN_FUNCTION
 * 'command'` runs the command in a fresh child, reads its state back, then runs `after` (shell
 * code that sees the command's status in `$?`) and returns that status.
 */
export function freshRunEnvironment(stateFile: string, after: string): Record<string, string> {
  const run = freshRun({ command: '"$1"', stateFile: `"$${STATE_FILE_VARIABLE}"`, bash: '"$BASH"' });
  return {
    [STATE_FILE_VARIABLE]: stateFile,
    [`BASH_FUNC_${CARRY_FUNCTION}%%`]: `() ${carryFunctionBody()}`,
    [`BASH_FUNC_${FRESH_RUN_FUNCTION}%%`]: `() { ${run}; ${after}; }`,
  };
}

/** The setup the persistent shell runs once: which bash starts the children, and the reader. */
export function freshRunSetup(): string {
  return `__logbook_bash=$BASH; unset -f $(compgen -A function) 2>/dev/null; ${carryFunctionCode()}`;
}

/** Where a shell's children leave their state. */
export interface CarryStateFile {
  /** The base name: each run writes a file of its own beside it (`path.<random>`). */
  readonly path: string;
  /** Removes the earlier runs' files (never following a link put among them). */
  sweep(): void;
  dispose(): void;
}

/**
 * Inside a sandbox, a name in its own /tmp (private, and gone with the sandbox); outside, a
 * private folder of this process, removed by `dispose`.
 */
export function carryStateFile(sandboxed: boolean): CarryStateFile {
  if (sandboxed)
    return {
      path: `/tmp/.logbook-carry-${randomBytes(6).toString('hex')}`,
      sweep: () => {},
      dispose: () => {},
    };
  const dir = mkdtempSync(join(tmpdir(), 'logbook-carry-'));
  return {
    path: join(dir, 'state'),
    sweep: () => {
      try {
        // rmSync removes a link itself, not what it leads to.
        for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
      } catch {
        // The folder is gone (disposed): nothing to sweep.
      }
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
