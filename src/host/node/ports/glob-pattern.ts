// Glob patterns as ripgrep's --glob reads them (gitignore style), for the search fallback without
// rg: a pattern without '/' matches a file name at any depth, one with '/' the path from the root
// of the search. The pattern itself is read by the core's one glob engine (core/text/glob.ts).
import { globRegExp, RIPGREP_GLOB } from '../../../core/text/glob';

export function globMatcher(pattern: string): (relativePath: string) => boolean {
  let body = pattern.trim().replace(/^\.\//, '');
  const anchored = body.includes('/');
  body = body.replace(/^\//, '');
  const regex = globRegExp(body, RIPGREP_GLOB);
  return anchored ? (path) => regex.test(path) : (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
}
