// Decisions left in a task's log folder (DECISIONS/) for the window that holds the log open: one
// file per deciding command, written whole and renamed, read oldest first (task-decision-log.ts).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTaskDecision, type TaskDecision } from '../../../core/worktrees/task-decision';

export const DECISIONS_DIR = 'DECISIONS';

/** Leaves `decisions` for the process that holds the log (one file, never seen half written). */
export function queueTaskDecisions(log: string, decisions: readonly TaskDecision[]): void {
  const dir = join(log, DECISIONS_DIR);
  mkdirSync(dir, { recursive: true });
  const name = `${Date.now().toString().padStart(15, '0')}-${randomUUID()}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(decisions), { mode: 0o600 });
  renameSync(tmp, join(dir, name));
}

/** One command's decisions; `done` removes its file once they are in the log. */
export interface QueuedBatch {
  decisions: TaskDecision[];
  done: () => void;
}

/**
 * The decisions left for the log's holder, one batch per command, oldest first. Each batch is
 * removed once appended, so a holder that stops half way appends none of them twice.
 */
export function queuedTaskDecisions(log: string): QueuedBatch[] {
  const dir = join(log, DECISIONS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  return names.sort().map((n) => {
    const file = join(dir, n);
    let decisions: TaskDecision[] = [];
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (Array.isArray(parsed)) decisions = parsed.filter(isTaskDecision);
    } catch {
      // A file that does not read is not a decision: nothing of it is appended, and it goes.
    }
    return { decisions, done: () => rmSync(file, { force: true }) };
  });
}
