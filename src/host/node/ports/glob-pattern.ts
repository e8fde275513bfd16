// Glob patterns as ripgrep's --glob reads them (gitignore style), for the search fallback without
// rg: a pattern without '/' matches a file name at any depth, one with '/' the path from the root
// of the search. Supports *, **, ?, [...] and {a,b}.

export function globMatcher(pattern: string): (relativePath: string) => boolean {
  let body = pattern.trim().replace(/^\.\//, '');
  const anchored = body.includes('/');
  body = body.replace(/^\//, '');
  const regex = new RegExp(`^${globToRegexSource(body)}$`);
  return anchored ? (path) => regex.test(path) : (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
}

export function globToRegexSource(glob: string): string {
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        // `**/` matches zero or more directories; a trailing `**` anything below.
        out += slashAfter ? '(?:.*/)?' : '.*';
        i += slashAfter ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        const inner = glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${inner}]`;
        i = close;
      }
    } else if (ch === '{') {
      braceDepth++;
      out += '(?:';
    } else if (ch === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (ch === ',' && braceDepth > 0) {
      out += '|';
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[++i] as string);
    } else {
      out += escapeRegex(ch);
    }
  }
  return out + ')'.repeat(braceDepth);
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
