// The conversation a command works on when none is named: the one most recently written of the
// current folder's store (`.logbook/conversations/` of the working folder, or of the nearest folder
// above it that has one, as git finds its repository). The pick is said on stderr, so stdout stays
// the command's output. Only a conversation `logbook run` started on this machine is picked (it
// left a record in the user's config folder): a folder that came with a cloned repository could
// otherwise be the newest one, and `approve` would carry out the actions it planted. A name given
// that is no folder here but a worktree task of this repository (logbook tasks) is that task's log.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { UsageError } from './exit-codes';
import type { CliIo } from './io';
import { resolvePath } from './conversation-dir';
import { keptRecordFile } from './kept-record';
import { taskLog } from './task-cli';

const STORE = join('.logbook', 'conversations');

/** The folder named on the command line, or the newest conversation of the current folder. */
export function conversationDirArg(
  command: string,
  positionals: readonly string[],
  io: CliIo,
): { dir: string; dirArg: string } {
  if (positionals.length > 1) {
    const got = positionals.map((p) => JSON.stringify(p)).join(' ');
    throw new UsageError(`logbook ${command}: expected at most one CONV_DIR, got ${got}.`);
  }
  const named = positionals[0];
  if (named !== undefined) {
    const dir = resolvePath(io, named);
    // A worktree task's name, when no such folder is here: the task's log.
    const log = existsSync(dir) ? undefined : taskLog(command, io, named);
    return { dir: log ?? dir, dirArg: log ?? named };
  }
  const newest = newestConversation(io.cwd, (dir) => existsSync(keptRecordFile(io.env, dir)));
  if (!newest) {
    throw new UsageError(
      `logbook ${command}: no CONV_DIR given, and ${io.cwd} has no conversation that logbook run ` +
        `started on this machine (in ${STORE} here or above). Name the conversation's folder.`,
    );
  }
  const rel = relative(io.cwd, newest.dir);
  const dirArg = rel === '' || rel.startsWith('..') ? newest.dir : rel;
  io.err(
    `logbook ${command}: using the newest conversation here, ${dirArg} (written ${newest.written.toISOString()}).`,
  );
  return { dir: newest.dir, dirArg };
}

/** The most recently written conversation folder (of those `own` accepts) of the nearest store at or above `cwd`. */
export function newestConversation(
  cwd: string,
  own: (dir: string) => boolean,
): { dir: string; written: Date } | undefined {
  for (let folder = cwd; ; folder = dirname(folder)) {
    const root = join(folder, STORE);
    const found = newestIn(root, own);
    if (found) return found;
    if (dirname(folder) === folder) return undefined;
  }
}

function newestIn(root: string, own: (dir: string) => boolean): { dir: string; written: Date } | undefined {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return undefined;
  }
  let best: { dir: string; written: Date } | undefined;
  for (const name of names) {
    const dir = join(root, name);
    const written = lastWritten(dir);
    if (written && own(dir) && (!best || written > best.written)) best = { dir, written };
  }
  return best;
}

/** When the conversation's log last changed: its newest segment, else its session file; undefined when not a conversation. */
function lastWritten(dir: string): Date | undefined {
  let newest: number | undefined;
  const consider = (p: string): void => {
    try {
      const t = statSync(p).mtimeMs;
      if (newest === undefined || t > newest) newest = t;
    } catch {
      // absent
    }
  };
  let segments: string[] = [];
  try {
    segments = readdirSync(join(dir, 'segments'));
  } catch {
    // no segment log
  }
  for (const s of segments) consider(join(dir, 'segments', s));
  consider(join(dir, 'session.json'));
  consider(join(dir, 'meta.json'));
  return newest === undefined ? undefined : new Date(newest);
}
