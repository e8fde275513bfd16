// What the fallback's login shell prints while it reads the user's startup files comes before any
// command: a version manager's setup that complains it cannot rehash in the sandbox's read-only
// home, say. Left in the stream, it would start the first command's output, in the chat and in the
// terminal. The shell prints a mark on both streams once its startup is over; what came before is
// kept apart here, as the CLI's shell keeps it (its startupOutput), and shown only if the shell
// ends before the mark (then it is why).
import { randomUUID } from 'node:crypto';

const RS = '\x1e';
/** Enough of a startup's warnings to say why a shell did not start. */
const KEPT_MAX = 16 * 1024;

type Stream = 'stdout' | 'stderr';

export class StartupOutput {
  private readonly mark = `${RS}LS${randomUUID().replace(/-/g, '')}${RS}`;
  private readonly over = { stdout: false, stderr: false };
  private readonly carry = { stdout: '', stderr: '' };
  private kept = '';

  /** The line the shell runs first: the mark on stdout, then on stderr. */
  line(bash: boolean): string {
    const printf = bash ? 'builtin printf' : 'printf';
    return `${printf} '${this.mark}'; ${printf} '${this.mark}' >&2\n`;
  }

  /** Both streams are past the startup. */
  get done(): boolean {
    return this.over.stdout && this.over.stderr;
  }

  /** What the startup printed so far (bounded). */
  get output(): string {
    return this.kept;
  }

  /** The part of `chunk` that comes after the startup on `stream` ('' while it is still going on). */
  pass(stream: Stream, chunk: string): string {
    if (this.over[stream]) return chunk;
    const s = this.carry[stream] + chunk;
    const at = s.indexOf(this.mark);
    if (at >= 0) {
      this.keep(s.slice(0, at));
      this.carry[stream] = '';
      this.over[stream] = true;
      return s.slice(at + this.mark.length);
    }
    // A tail that could still grow into the mark waits for the next chunk.
    const last = s.lastIndexOf(RS);
    const held = last >= 0 && this.mark.startsWith(s.slice(last)) ? s.slice(last) : '';
    this.keep(s.slice(0, s.length - held.length));
    this.carry[stream] = held;
    return '';
  }

  /** The shell ended during its startup: everything it printed, which says why. */
  unfinished(): string {
    if (this.done) return '';
    return this.kept + this.carry.stdout + this.carry.stderr;
  }

  private keep(text: string): void {
    if (this.kept.length < KEPT_MAX) this.kept = (this.kept + text).slice(0, KEPT_MAX);
  }
}
