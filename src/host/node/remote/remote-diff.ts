// `logbook diff` on a remote conversation: the change the server's agent made, as a unified diff
// built from the text the server sends for each file before and after (remote-change-set.ts): a
// rename as one file under both names, a symlink by its target, as git shows them.
import { createTwoFilesPatch } from 'diff';
import { printableLine } from '../../../core/text/printable';
import type { ServerChange } from './agent-server-git';

const LETTER: Record<ServerChange['status'], string> = {
  ADDED: 'A',
  UPDATED: 'M',
  DELETED: 'D',
  RENAMED: 'R',
};

/** One `A|M|D|R path` line per file, as `diff --stat` prints a local conversation's. */
export function changeStatLines(changes: readonly ServerChange[]): string[] {
  return changes.map((c) =>
    printableLine(`  ${LETTER[c.status]} ${c.from !== undefined ? `${c.from} -> ` : ''}${c.path}`),
  );
}

/** A line that names what the text below is when it is not a file's text: git's modes, in words. */
function kind(c: ServerChange): string | undefined {
  if (c.typeChanged)
    return c.symlink !== undefined
      ? '(a file, now a symlink: its text, then its target)'
      : '(a symlink, now a file: its target, then its text)';
  if (c.symlink !== undefined)
    return c.wasSymlink ? '(a symlink: its target changed)' : '(a new symlink: its target)';
  if (c.wasSymlink) return '(a symlink, deleted: its target)';
  return undefined;
}

export function changesPatch(changes: readonly ServerChange[]): string {
  const parts: string[] = [];
  for (const c of changes) {
    const head = c.from !== undefined ? `rename from ${c.from}\nrename to ${c.path}\n` : '';
    const note = kind(c);
    const from = c.status === 'ADDED' ? '/dev/null' : `a/${c.from ?? c.path}`;
    const to = c.status === 'DELETED' ? '/dev/null' : `b/${c.path}`;
    if (c.status === 'DELETED' && c.original === null) {
      // The server's /api/git/diff answers only for a file that exists, and its patch had no text.
      parts.push(`--- ${from}\n+++ ${to}\n(deleted on the server; its text is not sent)`);
      continue;
    }
    if (c.modified?.includes(0)) {
      parts.push(`${head}--- ${from}\n+++ ${to}\nBinary file differs`);
      continue;
    }
    if (c.status === 'RENAMED' && c.modified === null) {
      parts.push(`${head}--- ${from}\n+++ ${to}\n(renamed whole: its content is unchanged)`);
      continue;
    }
    if (c.status === 'RENAMED' && c.original === null) {
      parts.push(`${head}--- ${from}\n+++ ${to}\n(its text before the rename is not known)`);
      continue;
    }
    const patch = createTwoFilesPatch(
      from,
      to,
      c.original ?? '',
      c.modified?.toString('utf8') ?? '',
      '',
      '',
      { context: 3 },
    )
      // The package's separator line is not part of a unified diff.
      .replace(/^=+\n/, '')
      .replace(/\n$/, '');
    parts.push(head + (note ? `${note}\n` : '') + patch);
  }
  return parts.join('\n');
}
