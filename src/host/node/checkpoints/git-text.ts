// Text in and out of git for the checkpoint store: NUL-separated path lists, lines, patches with
// binary sections, sizes and git's complaints in words.
import { GitError } from './git-process';

export function nulJoin(paths: readonly string[]): string {
  return paths.map((p) => p + '\0').join('');
}

export function splitLines(buf: Buffer): string[] {
  return buf
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
}

/** Each file section of a patch whose text has a NUL byte, cut to its header and one line. */
export function binaryAsOneLine(patch: string): string {
  const sections = patch.split(/^(?=diff --git )/m);
  return sections
    .map((sec) => {
      if (!sec.includes('\0')) return sec;
      const head = sec
        .split('\n')
        .filter(
          (l) =>
            /^(diff --git|old mode|new mode|deleted file|new file|similarity|rename|index) /.test(l) ||
            /^(rename from|rename to)/.test(l),
        );
      const name = /^diff --git a\/(.*) b\/(.*)$/.exec(sec.split('\n')[0] ?? '');
      return [...head, `Binary files a/${name?.[1] ?? '?'} and b/${name?.[2] ?? '?'} differ`, ''].join('\n');
    })
    .join('');
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}

/**
 * What went wrong, in words: git's own complaint without its `error:` / `fatal:` prefixes and
 * repetitions (`'src/a.txt' is beyond a symbolic link` says which path and why).
 */
export function failureReason(err: unknown): string {
  if (!(err instanceof GitError))
    return (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
  const lines = err.stderr
    .split('\n')
    .map((l) => l.replace(/^(error|fatal|warning): /, '').trim())
    .filter((l) => l !== '');
  const beyond = lines.map((l) => /^'(.+)' is beyond a symbolic link$/.exec(l)).find((m) => m);
  if (beyond) return `a folder on the way to ${beyond[1]} is now a symbolic link`;
  return lines[0] ?? `git exited with ${err.code ?? 'a signal'}`;
}
