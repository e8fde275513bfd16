// Review decisions, apply and discard recorded in the task's signed log by the process that holds
// it. Nobody writes the log: the deciding process opens it, taking the writer lock as `logbook run`
// does, and appends. A window holds it open between two steps (HELD): the decision is left in the
// log's DECISIONS folder, written whole and renamed, and that window appends it (task-decision-
// inbox.ts); one that closes first leaves it to the next window that holds the log, or to the next
// decision recorded here.
import { createEvent } from '../../../core/events';
import { hasLiveWriter, isCorruptRecord } from '../../../core/log';
import type { SigningIdentity } from '../../../core/signing';
import { TASK_DECISION_KEY, type TaskDecision, withSummary } from '../../../core/worktrees/task-decision';
import { readSessionInfo } from '../cli/session-file';
import { openConversationStore } from '../session/conversation-store';
import { HELD_FILE } from './task-steps';
import { queuedTaskDecisions, queueTaskDecisions } from './task-decision-queue';

export interface DecisionWriter {
  signing?: SigningIdentity;
  /** Where this process keeps the log's signed head (the CLI's and the editor's differ). */
  headFile?: (conversationId: string, dir: string) => string;
  /** This process, in words, for the writer lock. */
  holder: string;
}

/** Where the decisions went: into the log, left for the window that holds it, or nowhere (no log yet). */
export type Recorded = 'appended' | 'queued' | 'no log';

/** The event that records `d` in the log, after `parent`. */
export function taskDecisionEvent(d: TaskDecision, parent: string | null) {
  return createEvent('ConversationStateUpdateEvent', {
    key: TASK_DECISION_KEY,
    value: d.summary === undefined ? withSummary(d) : d,
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
    ...(w.headFile ? { headFile: w.headFile(info.id, log) } : {}),
    lockHolder: w.holder,
  });
  try {
    if (store.readOnly) {
      queueTaskDecisions(log, decisions);
      return 'queued';
    }
    let parent: string | null = null;
    for (let i = store.length - 1; i >= 0 && parent === null; i--) {
      const slot = await store.get(i);
      if (!isCorruptRecord(slot)) parent = slot.id;
    }
    const append = async (batch: readonly TaskDecision[]) => {
      for (const d of batch) {
        const event = taskDecisionEvent(d, parent);
        await store.append(event, { durable: true });
        parent = event.id;
      }
      await store.flush();
    };
    // Those a window left behind first, each removed once the log holds it: the order is kept.
    for (const left of queuedTaskDecisions(log)) {
      await append(left.decisions);
      left.done();
    }
    await append(decisions);
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

/** A decision on one hunk (with the header the listing gives) or on a whole file, as recorded. */
type FileDecision = (
  task: Task,
  via: TaskDecision['via'],
  path: string,
  commit: string | null,
  wholeFile: boolean,
  hunk?: string,
) => TaskDecision;

const fileDecision =
  (onFile: 'reject_file' | 'accept_file', onHunk: 'reject_hunk' | 'accept_hunk'): FileDecision =>
  (task, via, path, commit, wholeFile, hunk) => ({
    decision: wholeFile ? onFile : onHunk,
    task: task.name,
    branch: task.branch,
    via,
    path,
    ...(hunk !== undefined ? { hunk } : {}),
    ...(commit ? { commit } : {}),
  });

/** A rejection (of one hunk, whose header the CLI's listing gives, or of the whole file) as recorded. */
export const rejectDecision: FileDecision = fileDecision('reject_file', 'reject_hunk');

export function discardDecision(task: Task, via: TaskDecision['via']): TaskDecision {
  return { decision: 'discard', task: task.name, branch: task.branch, via };
}

/**
 * An acceptance (of one hunk, with its header, or of the whole file) as recorded: nothing changes on
 * the branch, so `commit` is the branch's commit the reviewed change was on.
 */
export const acceptDecision: FileDecision = fileDecision('accept_file', 'accept_hunk');
