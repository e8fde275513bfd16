// The protocol between the pseudoterminal fallback and its persistent shell. Each command goes to
// the shell's stdin as ONE line, followed by end markers, so the shell has read the whole line
// before the command runs: a command reading stdin cannot swallow the markers, and a syntax error
// in the command still reaches them. A bash shell runs the command in a fresh child bash that
// carries only its folder and exported variables back (shell-fresh-run.ts), so nothing else of
// one command is there in the next. The stdout marker carries the exit status, the exported names
// that carried and the working directory; a second marker on stderr proves that stream is drained too.
import { CARRIED_VARIABLE } from '../../node/ports/shell-hook-reset';
import { freshRunCode } from '../../node/ports/shell-fresh-run';
import { shellQuote } from '../../node/ports/shell-sentinel';

const RS = '\x1e';

/**
 * The line running `command`. `stateFile` is where the fresh child leaves its state (the shell
 * ran freshRunSetup); without one (a plain POSIX sh) the command runs in the shell itself.
 */
export function commandLine(command: string, nonce: string, stateFile?: string): string {
  const status = stateFile
    ? `${freshRunCode(command, stateFile)}; builtin printf '${RS}LB${nonce};%s;%s;%s${RS}' "$?" "\${${CARRIED_VARIABLE}:--}" "$PWD"`
    : `eval ${shellQuote(command)}; printf '${RS}LB${nonce};%s;;%s${RS}' "$?" "$PWD"`;
  const printf = stateFile ? 'builtin printf' : 'printf';
  return `${status}; ${printf} '${RS}LB${nonce}${RS}' >&2\n`;
}

export interface MarkerScan {
  /** Text to pass on as output (markers removed). */
  text: string;
  /** Text held back because it may be the start of a marker split across chunks. */
  carry: string;
  /** Contents of a marker found in this chunk ("" for the bare stderr marker). */
  marker?: string;
}

/** Finds `RS LB<nonce>[;...] RS` in `carry + chunk`. */
export function scanForMarker(carry: string, chunk: string, nonce: string): MarkerScan {
  const s = carry + chunk;
  const open = `${RS}LB${nonce}`;
  const start = s.indexOf(open);
  if (start !== -1) {
    const close = s.indexOf(RS, start + open.length);
    if (close === -1) return { text: s.slice(0, start), carry: s.slice(start) };
    const body = s.slice(start + open.length, close);
    return {
      text: s.slice(0, start) + s.slice(close + 1),
      carry: '',
      marker: body.startsWith(';') ? body.slice(1) : body,
    };
  }
  // Hold back a tail that could still grow into the opening of a marker.
  const last = s.lastIndexOf(RS);
  if (last !== -1 && open.startsWith(s.slice(last))) return { text: s.slice(0, last), carry: s.slice(last) };
  return { text: s, carry: '' };
}

/** "<status>;<carried names, comma-ended, '-' for none, empty when untracked>;<cwd>" from the stdout marker. */
export function parseStatusMarker(marker: string): {
  exitCode: number | null;
  cwd: string;
  carried?: string[];
} {
  const sep = marker.indexOf(';');
  const code = Number(marker.slice(0, sep));
  const rest = marker.slice(sep + 1);
  const sep2 = rest.indexOf(';');
  const carried = rest.slice(0, sep2);
  return {
    exitCode: Number.isInteger(code) ? code : null,
    cwd: rest.slice(sep2 + 1),
    ...(carried !== '' ? { carried: carried === '-' ? [] : carried.split(',').filter((n) => n !== '') } : {}),
  };
}
