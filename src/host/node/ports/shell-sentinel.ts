// The protocol that tells where a command's output ends. After each command the shell undoes the
// hooks it may have planted (shell-hook-reset.ts), then prints a line no program would print by
// chance: a marker with a per-terminal nonce, the run id, the exit status, what could not be
// undone ("-" when nothing) and the working directory. Markers of other (stale) runs are removed
// from the output.
import { CARRIED_VARIABLE, hookResetCode, STATUS_VARIABLE, TAINT_VARIABLE } from './shell-hook-reset';

const RESET = hookResetCode();

export interface CommandEnd {
  runId: number;
  exitCode: number;
  cwd: string;
  /** Hooks the reset could not undo (see TAINT_VARIABLE); the shell must be replaced. */
  taint?: string;
  /** Exported variables the command set, changed or removed (names only), carried to the next. */
  carried: string[];
}

export class ShellSentinel {
  private readonly head: string;
  private readonly pattern: RegExp;

  constructor(nonce: string) {
    this.head = `__LOGBOOK_END_${nonce}_`;
    // The marker is printed after a newline (so it starts a line even when the output did not end
    // with one); that newline is optional here because it may already have been returned.
    this.pattern = new RegExp(
      `\\n?${this.head}(\\d+)__ (\\d+) ([a-z]+|-) ([A-Za-z0-9_,]+|-) ([^\\n]*)\\n`,
      'g',
    );
  }

  /**
   * Shell code undoing the previous command's hooks, then printing the marker of `runId` with that
   * command's status, what could not be undone, and $PWD.
   */
  printCommand(runId: number): string {
    // printf's format holds no expansion, so `set -x` traces show the format, which does not match.
    return (
      `${RESET}; builtin printf '\\n${this.head}${runId}__ %s %s %s %s\\n' ` +
      `"$${STATUS_VARIABLE}" "\${${TAINT_VARIABLE}:--}" "\${${CARRIED_VARIABLE}:--}" "$PWD"`
    );
  }

  /** Removes every complete marker from `text`, reporting the ends they announce in order. */
  extract(text: string): { text: string; ends: CommandEnd[] } {
    const ends: CommandEnd[] = [];
    const cleaned = text.replace(
      this.pattern,
      (_match, id: string, code: string, taint: string, carried: string, cwd: string) => {
        ends.push({
          runId: Number(id),
          exitCode: Number(code),
          cwd,
          ...(taint !== '-' ? { taint } : {}),
          carried: carried === '-' ? [] : carried.split(',').filter((n) => n !== ''),
        });
        return '';
      },
    );
    return { text: cleaned, ends };
  }

  /**
   * How many characters at the end of `text` might be the start of a marker still arriving; they
   * are held back so a half-printed marker never reaches the model.
   */
  incompleteTail(text: string): number {
    const start = text.lastIndexOf(this.head);
    if (start !== -1 && text.indexOf('\n', start) === -1) return text.length - start;
    for (let k = Math.min(this.head.length - 1, text.length); k > 0; k--) {
      if (text.endsWith(this.head.slice(0, k))) return k;
    }
    return 0;
  }
}

/** Quotes text as one single-quoted shell word (newlines and all). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
