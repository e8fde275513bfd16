// `logbook diff` on a remote conversation: the change the server's agent made, as a unified diff
// built from the text the server sends for each file before and after (agent-server-git.ts).
import { createTwoFilesPatch } from 'diff';
import { printableLine } from '../../../core/text/printable';
import type { ServerChange } from './agent-server-git';

const LETTER: Record<ServerChange['status'], string> = { ADDED: 'A', UPDATED: 'M', DELETED: 'D' };

/** One `A|M|D path` line per file, as `diff --stat` prints a local conversation's. */
export function changeStatLines(changes: readonly ServerChange[]): string[] {
  return changes.map((c) => printableLine(`  ${LETTER[c.status]} ${c.path}`));
}

export function changesPatch(changes: readonly ServerChange[]): string {
  const parts: string[] = [];
  for (const c of changes) {
    if (c.status === 'DELETED') {
      // The server's /api/git/diff answers only for a file that exists: the deletion has no text.
      parts.push(`--- a/${c.path}\n+++ /dev/null\n(deleted on the server; its text is not sent)`);
      continue;
    }
    const from = c.original === null ? '/dev/null' : `a/${c.path}`;
    if (c.modified?.includes(0)) {
      parts.push(`--- ${from}\n+++ b/${c.path}\nBinary file differs`);
      continue;
    }
    const patch = createTwoFilesPatch(
      from,
      `b/${c.path}`,
      c.original ?? '',
      c.modified?.toString('utf8') ?? '',
      '',
      '',
      { context: 3 },
    )
      // The package's separator line is not part of a unified diff.
      .replace(/^=+\n/, '')
      .replace(/\n$/, '');
    parts.push(patch);
  }
  return parts.join('\n');
}
