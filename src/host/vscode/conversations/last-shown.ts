// The conversation last shown in any window of the workspace (a reopened browser tab's window may
// never have seen it), kept beside the conversations folder. A worktree task's conversation is
// noted with its task's name: its log lives with the task, and is found again (after a reload)
// through the task store, never through a path read from this file.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const LAST_SHOWN_FILE = 'last-shown.json';

export interface LastShown {
  id: string;
  /** The worktree task whose conversation it is. */
  task?: string | undefined;
}

const fileOf = (root: string) => join(dirname(root), LAST_SHOWN_FILE);

export function readLastShown(root: string): LastShown | undefined {
  try {
    const v = JSON.parse(readFileSync(fileOf(root), 'utf8')) as { id?: unknown; task?: unknown };
    if (typeof v.id !== 'string') return undefined;
    return typeof v.task === 'string' ? { id: v.id, task: v.task } : { id: v.id };
  } catch {
    return undefined;
  }
}

export function writeLastShown(
  root: string,
  shown: LastShown | undefined,
  log: { warn(message: string): void },
): void {
  try {
    writeFileSync(fileOf(root), JSON.stringify({ id: shown?.id ?? null, task: shown?.task ?? null }) + '\n');
  } catch (err) {
    log.warn(`Could not note the conversation shown: ${String(err)}`);
  }
}
