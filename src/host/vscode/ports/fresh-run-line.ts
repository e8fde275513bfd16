// What the editor's terminal types for a command, and how its end is read back (no `vscode`
// here, so the hostile suite runs it in a real bash): the terminal's bash gets the fresh-run
// functions through its environment, each command is typed as one line calling them, and the
// function ends with a mark the terminal does not show (an OSC sequence of no meaning to it)
// naming the exported variables that carried and the folder the shell is in.
import { CARRIED_VARIABLE } from '../../node/ports/shell-hook-reset';
import {
  type CarryStateFile,
  FRESH_RUN_FUNCTION,
  freshRunEnvironment,
} from '../../node/ports/shell-fresh-run';
import { shellQuote } from '../../node/ports/shell-sentinel';

const END_MARK = '\x1b]6973;LB;';

/**
 * The environment that gives the terminal's bash the functions `freshRunLine` calls, with the
 * state file its children use.
 */
export function freshRunTerminalEnvironment(state: CarryStateFile): Record<string, string> {
  const after =
    'local __logbook_s=$?; ' +
    `builtin printf '\\033]6973;LB;%s;%s\\007' "\${${CARRIED_VARIABLE}:--}" "$PWD"; ` +
    'builtin return $__logbook_s';
  return freshRunEnvironment(state.path, after);
}

/**
 * The line typed for `command`: always one line, and nothing in it a terminal would act on (a
 * newline or other control character is written as an escape of bash's $'…' quoting).
 */
export function freshRunLine(command: string): string {
  const text = command.replace(/\0/g, '');
  if (!/[\x00-\x1f\x7f]/.test(text)) return `${FRESH_RUN_FUNCTION} ${shellQuote(text)}`;
  const escaped = text.replace(/[\\'\x00-\x1f\x7f]/g, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `${FRESH_RUN_FUNCTION} $'${escaped}'`;
}

/** The last end mark in raw output: what carried (names) and the shell's folder after it. */
export function lastEndMark(raw: string): { carried: string[]; cwd: string } | undefined {
  const start = raw.lastIndexOf(END_MARK);
  if (start === -1) return undefined;
  const end = raw.indexOf('\x07', start);
  if (end === -1) return undefined;
  const body = raw.slice(start + END_MARK.length, end);
  const sep = body.indexOf(';');
  if (sep === -1) return undefined;
  const names = body.slice(0, sep);
  return {
    carried: names === '-' ? [] : names.split(',').filter((n) => n !== ''),
    cwd: body.slice(sep + 1),
  };
}

/** The command a line of `freshRunLine` runs; any other line as it is (what the user typed). */
export function commandOfLine(line: string): string {
  const prefix = `${FRESH_RUN_FUNCTION} `;
  if (!line.startsWith(prefix)) return line;
  const word = line.slice(prefix.length);
  if (/^'(?:[^']|'\\'')*'$/.test(word)) return word.slice(1, -1).replace(/'\\''/g, "'");
  if (/^\$'(?:[^\\']|\\.)*'$/.test(word))
    return word
      .slice(2, -1)
      .replace(/\\(x[0-9a-f]{2}|.)/g, (_, e: string) =>
        e.length === 3 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
      );
  return line;
}
