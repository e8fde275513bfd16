// What `logbook tasks` shows of one task: the status its log, its process and worktree give, the files its
// branch and worktree changed against the base, and the cost its log recorded.
import { existsSync } from 'node:fs';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { type EventStore, hasLiveWriter } from '../../../core/log';
import { type ExecutionStatus, stateFromStore } from '../../../core/state';
import { type TaskRecord, type TaskStatus, taskStatus } from '../../../core/worktrees';
import { gitTry, lines } from './git-run';
import { taskOwnerAlive } from './task-owner';
import { isHostCommandCall } from '../../../core/agent/host-command';

export interface TaskFactsReport {
  name: string;
  status: TaskStatus;
  /** The task waits for the user: a confirmation, a plan, a stop to look at, a change to review. */
  waiting_for_you: boolean;
  branch: string;
  base: string;
  worktree: string;
  log: string;
  task: string;
  created: string;
  /** Files changed against the base: committed on the branch, and uncommitted in the worktree. */
  files_changed: number | null;
  cost: number | null;
}

type Open = (dir: string) => Promise<EventStore<StoredConversationEvent>>;

export async function taskFacts(t: TaskRecord, open: Open): Promise<TaskFactsReport> {
  const worktreeExists = existsSync(t.worktree);
  const logWriter = hasLiveWriter(t.log);
  let execution: ExecutionStatus | null = null;
  let settingUp = false;
  let cost: number | null = null;
  if (existsSync(t.log)) {
    const store = await open(t.log).catch(() => undefined);
    if (store) {
      try {
        if (store.length > 0) {
          const { state } = await stateFromStore(store, { id: t.name });
          execution = state.status;
          cost = state.metrics.total.cost;
          settingUp = state.pendingActions.some((p) => isHostCommandCall(p.toolCallId));
        }
      } finally {
        await store.close();
      }
    }
  }
  // The log's writer; while the log holds nothing yet, the process that started the task (the editor
  // that made it holds that lock as long as the window lives: it counts only before the log does).
  const writerAlive = logWriter || (execution === null && taskOwnerAlive(t.log));
  const seen = taskStatus({ lifecycle: t.status, execution, writerAlive, worktreeExists, settingUp });
  return {
    name: t.name,
    status: seen.status,
    waiting_for_you: seen.waitingForYou,
    branch: t.branch,
    base: t.base,
    worktree: t.worktree,
    log: t.log,
    task: t.task,
    created: t.created,
    files_changed: worktreeExists ? changedFiles(t) : null,
    cost,
  };
}

function changedFiles(t: TaskRecord): number | null {
  const diff = gitTry(t.worktree, ['diff', '--name-only', t.base]);
  const untracked = gitTry(t.worktree, ['ls-files', '--others', '--exclude-standard']);
  if (diff.code !== 0 || untracked.code !== 0) return null;
  return new Set([...lines(diff.stdout), ...lines(untracked.stdout)]).size;
}
