// How an attachment reads in the message the model gets (and the log keeps): a header line that says
// what it is, its text (fenced when it is code or output), and a note when it was cut. Every way the
// editor's context reaches a message (mentions, the composer's toggles, the start-task command) goes
// through here, so each is capped, fence-safe and shown by the chat as an attachment. No library
// serves: the format is Logbook's own, and its fence rule is CommonMark's (a longer run closes).

/** Characters of one attachment's text; more is cut with a note. */
export const MAX_ATTACHMENT_CHARS = 50_000;

export const ATTACHMENT_HEADER = /^--- Attached (.+?) ---(?:\n|$)/;

export interface AttachmentTextOptions {
  /** Fence the body as a code block (with this info string, '' for none); false: plain text. */
  fence?: string | false;
  max?: number;
}

/** "--- Attached <what> ---", then the body (cut to `max` with a note saying how much). */
export function attachmentText(what: string, body: string, opts: AttachmentTextOptions = {}): string {
  const max = opts.max ?? MAX_ATTACHMENT_CHARS;
  const header = `--- Attached ${what.replace(/\s+/g, ' ').trim()} ---`;
  let shown = body;
  let note = '';
  if (body.length > max) {
    // Cut at a line end when one is near, so the last line shown is whole.
    const end = body.lastIndexOf('\n', max);
    shown = body.slice(0, end > max * 0.8 ? end : max);
    note = `\n[Cut: the first ${shown.length.toLocaleString('en-US')} of ${body.length.toLocaleString('en-US')} characters are shown; the rest was left out.]`;
  }
  if (opts.fence === false || opts.fence === undefined) return `${header}\n${shown}${note}`;
  const fence = fenceFor(shown);
  return `${header}\n${fence}${opts.fence}\n${shown}${shown.endsWith('\n') ? '' : '\n'}${fence}${note}`;
}

/** A backtick fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/** What the editor shows when a message is sent: its file, and the selection in it if any. */
export interface EditorContext {
  /** The file's path as the user reads it (workspace-relative). */
  path: string;
  selection?: {
    text: string;
    /** 1-based, inclusive. */
    startLine: number;
    endLine: number;
    /** The editor's language id, as the fence's info string. */
    language?: string;
  };
}

/** The editor's context as one attachment: the selection (fenced), or else which file is open. */
export function editorContextText(ctx: EditorContext, max?: number): string {
  const sel = ctx.selection;
  const opts = max === undefined ? {} : { max };
  if (!sel)
    return attachmentText(
      `open file ${ctx.path}`,
      'The file the user is looking at (its text is not attached).',
      opts,
    );
  const lines =
    sel.startLine === sel.endLine ? `line ${sel.startLine}` : `lines ${sel.startLine}-${sel.endLine}`;
  return attachmentText(`selection in ${ctx.path} (${lines})`, sel.text, {
    ...opts,
    fence: sel.language ?? '',
  });
}
