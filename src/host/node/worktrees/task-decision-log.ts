// Review decisions, apply and discard recorded in the task's signed log by the process that holds
// it. Nobody writes the log: the deciding process opens it, taking the writer lock as `logbook run`
// does, and appends. A window holds it open between two steps (HELD): the decision is left in the
// log's DECISIONS folder, written whole and renamed, and that window appends it (task-decision-
// inbox.ts); a window that closes first leaves it to the next process that opens the log to write.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEvent } from '../../../core/events';
import { hasLiveWriter, isCorruptRecord } from '../../../core/log';
import type { SigningIdentity } from '../../../core/signing';
import { isTaskDecision, TASK_DECISION_KEY, type TaskDecision } from '../../../core/worktrees/task-decision';
import { readSessionInfo } from '../cli/session-file';
import { openConversationStore } from '../session/conversation-store';
import { HELD_FILE } from './task-steps';

export const DECISIONS_DIR = 'DECISIONS';

export interface DecisionWriter {
  signing?: SigningIdentity;
  /** Where this process keeps the log's signed head (the CLI's and the editor's differ). */
  headFile?: (dir: string) => string;
  /** This process, in words, for the writer lock. */
  holder: string;
}

/** Where the decisions went: into the log, left for the window that holds it, or nowhere (no log yet). */
export type Recorded = 'appended' | 'queued' | 'no log';

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

/** The event that records `d` in the log, after `parent`. */
export function taskDecisionEvent(d: TaskDecision, parent: string | null) {
  return createEvent('ConversationStateUpdateEvent', {
    key: TASK_DECISION_KEY,
    value: d,
    source: 'user',
    parent_id: parent,
  } as Parameters<typeof createEvent<'ConversationStateUpdateEvent'>>[1]);
}

/**
 * Records `decisions` in the task's log (its folder `log`): appended here, after any left by a
 * window that closed before it could, unless a window holds the log open (then queued for it).
 */
export async function recordTaskDecisions(
  log: string,
  decisions: readonly TaskDecision[],
  w: DecisionWriter,
): Promise<Recorded> {
  if (decisions.length === 0) return 'appended';
  const info = readSessionInfo(log);
  // A task whose start failed before its conversation began has no log to record in.
  if (!info) return 'no log';
  if (hasLiveWriter(log) && hasLiveWriter(log, HELD_FILE)) {
    queueTaskDecisions(log, decisions);
    return 'queued';
  }
  const store = await openConversationStore(log, {
    ...(w.signing ? { signing: w.signing } : {}),
    conversationId: info.id,
    ...(w.headFile ? { headFile: w.headFile(log) } : {}),
    lockHolder: w.holder,
  });
  try {
    if (store.readOnly) {
      queueTaskDecisions(log, decisions);
      return 'queued';
    }
    const left = queuedTaskDecisions(log);
    let parent: string | null = null;
    for (let i = store.length - 1; i >= 0 && parent === null; i--) {
      const slot = await store.get(i);
      if (!isCorruptRecord(slot)) parent = slot.id;
    }
    for (const d of [...left.decisions, ...decisions]) {
      const event = taskDecisionEvent(d, parent);
      await store.append(event, { durable: true });
      parent = event.id;
    }
    await store.flush();
    left.done();
    return 'appended';
  } finally {
    await store.close();
  }
}

type Task = { name: string; branch: string };

/** Apply's result as the decision recorded. */
export function applyDecision(
  task: Task,
  via: TaskDecision['via'],
  into: string,
  result:
    | { kind: 'merged'; commit: string; files: string[] }
    | { kind: 'nothing' }
    | { kind: 'conflict'; conflicted: string[] },
): TaskDecision {
  const base = { decision: 'apply' as const, task: task.name, branch: task.branch, via, into };
  switch (result.kind) {
    case 'merged':
      return { ...base, outcome: 'merged', commit: result.commit, files: result.files };
    case 'nothing':
      return { ...base, outcome: 'nothing' };
    case 'conflict':
      return { ...base, outcome: 'conflict', files: result.conflicted };
  }
}

/** A rejection (a hunk when `hunk` names its header, else the whole file) as the decision recorded. */
export function rejectDecision(
  task: Task,
  via: TaskDecision['via'],
  path: string,
  commit: string | null,
  hunk?: string,
): TaskDecision {
  return {
    decision: hunk === undefined ? 'reject_file' : 'reject_hunk',
    task: task.name,
    branch: task.branch,
    via,
    path,
    ...(hunk !== undefined ? { hunk } : {}),
    ...(commit ? { commit } : {}),
  };
}

export function discardDecision(task: Task, via: TaskDecision['via']): TaskDecision {
  return { decision: 'discard', task: task.name, branch: task.branch, via };
}
