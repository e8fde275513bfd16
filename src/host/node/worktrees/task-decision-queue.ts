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

/** Decisions left for the log's holder, oldest first; `done` removes them once they are appended. */
export function queuedTaskDecisions(log: string): { decisions: TaskDecision[]; done: () => void } {
  const dir = join(log, DECISIONS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return { decisions: [], done: () => undefined };
  }
  names.sort();
  const decisions: TaskDecision[] = [];
  for (const n of names) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(join(dir, n), 'utf8'));
      if (Array.isArray(parsed)) decisions.push(...parsed.filter(isTaskDecision));
    } catch {
      // A file that does not read is not a decision; it is removed with the rest.
    }
  }
  return { decisions, done: () => names.forEach((n) => rmSync(join(dir, n), { force: true })) };
}
