// The protocol that tells where a command's output ends. After each command the shell prints a
// line no program would print by chance: a marker with a per-terminal nonce, the run id, the exit
// status and the working directory. Markers of other (stale) runs are removed from the output.

export interface CommandEnd {
  runId: number;
  exitCode: number;
  cwd: string;
}

export class ShellSentinel {
  private readonly head: string;
  private readonly pattern: RegExp;

  constructor(nonce: string) {
    this.head = `__LOGBOOK_END_${nonce}_`;
    // The marker is printed after a newline (so it starts a line even when the output did not end
    // with one); that newline is optional here because it may already have been returned.
    this.pattern = new RegExp(`\\n?${this.head}(\\d+)__ (\\d+) ([^\\n]*)\\n`, 'g');
  }

  /** Shell code printing the marker of `runId` with the status of the previous command and $PWD. */
  printCommand(runId: number): string {
    // printf's format holds no expansion, so `set -x` traces show the format, which does not match.
    return `printf '\\n${this.head}${runId}__ %s %s\\n' "$?" "$PWD"`;
  }

  /** Removes every complete marker from `text`, reporting the ends they announce in order. */
  extract(text: string): { text: string; ends: CommandEnd[] } {
    const ends: CommandEnd[] = [];
    const cleaned = text.replace(this.pattern, (_match, id: string, code: string, cwd: string) => {
      ends.push({ runId: Number(id), exitCode: Number(code), cwd });
      return '';
    });
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
