// A first pass over shell text, before `shell-quote` splits it into words. shell-quote does not know
// command substitution ($(...), backticks, <(...)), newlines as separators, heredocs, or that '#'
// only starts a comment at the start of a word (it reads `a#b; rm x` as a comment!). This pass
// fixes all of that while keeping quotes intact:
//   - each substitution is cut out and replaced by a placeholder word; its text is parsed on its own,
//   - unquoted newlines become ';', line continuations disappear, comments are dropped,
//   - a '#' inside a word is escaped, heredoc bodies are skipped (their substitutions kept).

export interface ScannedShell {
  /** The text with substitutions replaced by placeholders, ready for shell-quote. */
  text: string;
  /** Inner text of each substitution, indexed by placeholder number. */
  substitutions: string[];
  /** Heredoc bodies, indexed by the number in their `__LBDOC_n__` delimiter placeholder. */
  heredocs: string[];
  /** A quote or substitution was still open at the end. */
  incomplete: boolean;
}

export const PLACEHOLDER = /__LBSUB_(\d+)__/g;
export const HEREDOC_PLACEHOLDER = /^__LBDOC_(\d+)__$/;
const placeholder = (n: number) => `__LBSUB_${n}__`;

/** Characters after which a '#' starts a comment (a new word begins). */
const WORD_BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

export function scanShell(source: string): ScannedShell {
  const substitutions: string[] = [];
  let out = '';
  let i = 0;
  let quote: '"' | "'" | null = null;
  let incomplete = false;
  const heredocs: string[] = [];
  const pendingHeredocs: { index: number; delimiter: string; stripTabs: boolean; expands: boolean }[] = [];

  const cutSubstitution = (open: number, closer: ')' | '`'): void => {
    // `open` is where the inner text starts; find its end respecting nesting and quotes.
    const end = closer === '`' ? findBacktickEnd(source, open) : findParenEnd(source, open);
    if (end === -1) incomplete = true;
    substitutions.push(source.slice(open, end === -1 ? source.length : end));
    out += placeholder(substitutions.length - 1);
    i = end === -1 ? source.length : end + 1;
  };

  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];

    if (quote === "'") {
      out += ch;
      if (ch === "'") quote = null;
      i++;
      continue;
    }
    if (ch === '\\') {
      if (next === '\n') {
        i += 2; // line continuation
        continue;
      }
      if (quote === '"' && (next === '`' || next === '\\')) {
        // shell-quote keeps the backslash of \` and \\ inside double quotes (bash drops it), so
        // step out of the quotes for this one escape: "a"\`"b" is the same word, read right.
        out += `"\\${next}"`;
        i += 2;
        continue;
      }
      out += source.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '$' && next === '(' && source[i + 2] === '(') {
      // Arithmetic $((...)) runs nothing itself (bash does not fall back to a subshell), but
      // substitutions inside it do: a number stands in, followed by their placeholders.
      const end = findParenEnd(source, i + 2);
      const body = source.slice(i + 3, end === -1 ? source.length : end - 1);
      out += '1';
      for (const inner of scanShell(body).substitutions) out += placeholder(substitutions.push(inner) - 1);
      if (end === -1) incomplete = true;
      i = end === -1 ? source.length : end + 1;
      continue;
    }
    if (ch === '$' && next === '(') {
      cutSubstitution(i + 2, ')');
      continue;
    }
    if (ch === '`') {
      cutSubstitution(i + 1, '`');
      continue;
    }
    if (quote === '"') {
      out += ch;
      if (ch === '"') quote = null;
      i++;
      continue;
    }

    // Unquoted from here on.
    if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
      i++;
      continue;
    }
    if ((ch === '<' || ch === '>') && next === '(') {
      cutSubstitution(i + 2, ')'); // process substitution
      continue;
    }
    if (ch === '#') {
      const previous = out[out.length - 1];
      if (previous === undefined || WORD_BREAK.has(previous)) {
        while (i < source.length && source[i] !== '\n') i++; // comment
      } else {
        out += '\\#';
        i++;
      }
      continue;
    }
    if (ch === '<' && next === '<' && source[i + 2] === '<') {
      // A here-string: its word follows as an ordinary word (not a heredoc delimiter).
      out += '<<<';
      i += 3;
      continue;
    }
    if (ch === '<' && next === '<') {
      const heredoc = readHeredocOperator(source, i);
      if (heredoc) {
        const index = heredocs.push('') - 1;
        pendingHeredocs.push({ ...heredoc, index });
        out += `<< __LBDOC_${index}__`;
        i = heredoc.end;
        continue;
      }
    }
    if (ch === '\n') {
      i++;
      // Heredoc bodies start on the next line; they are data, except that an unquoted delimiter
      // lets $(...) in them run, so those become extra words of the command.
      const extraWords: string[] = [];
      for (const doc of pendingHeredocs.splice(0)) {
        const body = skipHeredocBody(source, i, doc.delimiter, doc.stripTabs);
        heredocs[doc.index] = body.text;
        if (doc.expands) {
          for (const inner of scanShell(body.text.replace(/['"]/g, ' ')).substitutions) {
            extraWords.push(placeholder(substitutions.push(inner) - 1));
          }
        }
        i = body.end;
      }
      out += `${extraWords.map((w) => ` ${w}`).join('')} ; `;
      continue;
    }
    out += ch;
    i++;
  }
  if (quote) incomplete = true;
  return { text: out, substitutions, heredocs, incomplete };
}

/** Index of the ')' closing a '(' whose content starts at `start`, or -1. */
function findParenEnd(source: string, start: number): number {
  let depth = 1;
  let quote: '"' | "'" | null = null;
  for (let i = start; i < source.length; i++) {
    const ch = source[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      continue;
    }
    if (ch === '\\') {
      i++;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '$' && source[i + 1] === '(') {
        const end = findParenEnd(source, i + 2);
        if (end === -1) return -1;
        i = end;
      }
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

function findBacktickEnd(source: string, start: number): number {
  for (let i = start; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '`') return i;
  }
  return -1;
}

function readHeredocOperator(
  source: string,
  at: number,
): { delimiter: string; stripTabs: boolean; expands: boolean; end: number } | undefined {
  let i = at + 2;
  const stripTabs = source[i] === '-';
  if (stripTabs) i++;
  while (source[i] === ' ' || source[i] === '\t') i++;
  const match = /^(?:'([^'\n]*)'|"([^"\n]*)"|\\?([^\s;&|<>()]+))/.exec(source.slice(i));
  if (!match) return undefined;
  const quoted = match[1] !== undefined || match[2] !== undefined || match[0].startsWith('\\');
  const delimiter = (match[1] ?? match[2] ?? match[3] ?? '').replace(/['"\\]/g, '');
  return { delimiter, stripTabs, expands: !quoted, end: i + match[0].length };
}

function skipHeredocBody(
  source: string,
  start: number,
  delimiter: string,
  stripTabs: boolean,
): { text: string; end: number } {
  let i = start;
  while (i < source.length) {
    const lineEnd = source.indexOf('\n', i);
    const end = lineEnd === -1 ? source.length : lineEnd;
    let line = source.slice(i, end);
    if (stripTabs) line = line.replace(/^\t+/, '');
    if (line === delimiter) return { text: source.slice(start, i), end: Math.min(end + 1, source.length) };
    i = end + 1;
  }
  return { text: source.slice(start), end: source.length };
}
