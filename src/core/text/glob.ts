// Glob patterns as regular expressions: one engine for the two dialects Logbook reads. The search
// fallback reads ripgrep's --glob (gitignore style: `**` crosses folders, `{a,b}` alternatives,
// `\` quotes); the command analyzer reads bash's pathname expansion exactly, because a sensitive
// file it misses is one the agent reads unasked (no globstar, a leading `*` or `?` never matches a
// dot, braces are expanded before). No library serves: picomatch and minimatch read neither
// dialect exactly (their dot and brace rules are options of their own), and this is small.

export interface GlobDialect {
  /** `**` matches across folders (and `**` + `/` zero or more of them); off: two `*`s. */
  globstar: boolean;
  /** `{a,b}` are alternatives; off: braces are literal (bash expands them before globbing). */
  braces: boolean;
  /** `\` quotes the next character; off: a backslash is literal. */
  quotes: boolean;
  /** A `*` or `?` that starts a name does not match a leading dot (bash without dotglob). */
  hiddenDots: boolean;
  /** A character that matches any text, across folders (a part only known at run time). */
  anything?: string;
}

/** ripgrep's --glob, as the search fallback without rg reads it. */
export const RIPGREP_GLOB: GlobDialect = { globstar: true, braces: true, quotes: true, hiddenDots: false };

/** bash's pathname expansion with its default options (after brace expansion). */
export const BASH_GLOB: GlobDialect = { globstar: false, braces: false, quotes: false, hiddenDots: true };

/** The regular expression source (unanchored) that matches what `glob` matches in `dialect`. */
export function globSource(glob: string, dialect: GlobDialect): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    const nameStart = dialect.hiddenDots && (i === 0 || glob[i - 1] === '/');
    if (ch === dialect.anything) out += '.*';
    else if (ch === '*' && dialect.globstar && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      // `**/` matches zero or more folders; a trailing `**` anything below.
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (ch === '*') out += nameStart ? '(?!\\.)[^/]*' : '[^/]*';
    else if (ch === '?') out += nameStart ? '[^/.]' : '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      const inner = glob
        .slice(i + 1, close)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\');
      out += `[${inner}]`;
      i = close;
    } else if (dialect.braces && ch === '{') {
      braceDepth++;
      out += '(?:';
    } else if (dialect.braces && ch === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (dialect.braces && ch === ',' && braceDepth > 0) out += '|';
    else if (dialect.quotes && ch === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i]!);
    else out += escapeRegex(ch);
  }
  return out + ')'.repeat(braceDepth);
}

/** The whole-text regular expression for `glob` in `dialect`. */
export function globRegExp(glob: string, dialect: GlobDialect): RegExp {
  return new RegExp(`^${globSource(glob, dialect)}$`);
}

function escapeRegex(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
