// Output of one command as it streams in, handed out in pieces: each `take` returns the plain
// text produced since the previous one (what `run` and later `sendInput('')` report).
import { splitAtIncompleteEscape, stripAnsi } from './strip-ansi';

/** Raw characters kept between two takes; a chatty server must not grow memory without bound. */
const MAX_UNREAD = 4 * 1024 * 1024;

export class OutputBuffer {
  private unread = '';
  private droppedChars = 0;

  /**
   * @param echo the command line, when the terminal may echo it into the output: a shell that gets
   * the command while still drawing its prompt prints the typed line after the start mark. The
   * first line of output is dropped when it is exactly that line.
   */
  constructor(private echo?: string) {}

  append(raw: string): void {
    this.unread += raw;
    if (this.unread.length > MAX_UNREAD) {
      const cut = this.unread.length - MAX_UNREAD / 2;
      this.droppedChars += cut;
      this.unread = this.unread.slice(cut);
    }
  }

  /** Plain text since the last take. `final` also flushes an escape sequence cut off at the end. */
  take(final = false): string {
    const [complete, pending] = final ? [this.unread, ''] : splitAtIncompleteEscape(this.unread);
    this.unread = pending;
    const dropped = this.droppedChars;
    this.droppedChars = 0;
    let text = stripAnsi(complete);
    if (this.echo !== undefined && text !== '') {
      if (text.startsWith(this.echo + '\n')) text = text.slice(this.echo.length + 1);
      this.echo = undefined;
    }
    return dropped ? `[... ${dropped} characters of output dropped ...]\n${text}` : text;
  }
}
