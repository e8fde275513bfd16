// The protocol between the pseudoterminal fallback and its persistent shell. Each command goes to
// the shell's stdin as ONE line, `eval '<command>'` followed by end markers, so the shell has read
// the whole line before the command runs: a command reading stdin cannot swallow the markers, and
// a syntax error in the command still reaches them. Between the two, a bash shell undoes the hooks
// the command may have planted (see shell-hook-reset.ts). The stdout marker carries the exit
// status, what could not be undone and the working directory; a second marker on stderr proves
// that stream is drained too.
import { hookResetCode, STATUS_VARIABLE, TAINT_VARIABLE } from '../../node/ports/shell-hook-reset';

const RS = '\x1e';

export function quoteForShell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The reset keeps the one trap the session relies on: Ctrl+C must not end the shell. */
const BASH_RESET = hookResetCode({ afterTraps: "trap ':' INT" });

/** The line running `command`; `bash` false for a plain POSIX sh, which gets no hook reset. */
export function commandLine(command: string, nonce: string, bash = true): string {
  const printf = bash ? 'builtin printf' : 'printf';
  const status = bash
    ? `${BASH_RESET}; ${printf} '${RS}LB${nonce};%s;%s;%s${RS}' "$${STATUS_VARIABLE}" "\${${TAINT_VARIABLE}:--}" "$PWD"`
    : `${printf} '${RS}LB${nonce};%s;-;%s${RS}' "$?" "$PWD"`;
  return `eval ${quoteForShell(command)}; ${status}; ${printf} '${RS}LB${nonce}${RS}' >&2\n`;
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

/** "<status>;<taint or ->;<cwd>" from the stdout marker. */
export function parseStatusMarker(marker: string): { exitCode: number | null; cwd: string; taint?: string } {
  const sep = marker.indexOf(';');
  const code = Number(marker.slice(0, sep));
  const rest = marker.slice(sep + 1);
  const sep2 = rest.indexOf(';');
  const taint = rest.slice(0, sep2);
  return {
    exitCode: Number.isInteger(code) ? code : null,
    cwd: rest.slice(sep2 + 1),
    ...(taint !== '-' && taint !== '' ? { taint } : {}),
  };
}
