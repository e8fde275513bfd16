// What a task's status reads as in a list: derived from its conversation's state, whether a
// process still writes its log (or, before it has one, the process that started the task lives), and
// whether its worktree is there. A log left `running`, empty, or in its setup by a process that is
// gone (killed, crashed) is a crashed task: its worktree is kept, to look at and continue.
import type { ExecutionStatus } from '../state/transitions';
import type { TaskLifecycle } from './task-record';

export const TASK_STATUSES = [
  'starting',
  'setting up',
  'running',
  'waiting',
  'finished',
  'failed',
  'crashed',
  'missing',
  'applied',
  'discarded',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskFacts {
  lifecycle: TaskLifecycle;
  /** The conversation's status as its log says; null when the log holds no event yet. */
  execution: ExecutionStatus | null;
  /** A process writes the log, or, before the log has anything, the one that started the task lives. */
  writerAlive: boolean;
  worktreeExists: boolean;
  /** The log holds a setup command without its result. */
  settingUp?: boolean;
}

export interface SeenStatus {
  status: TaskStatus;
  /** The task waits for the user: a confirmation, a plan to approve, or a stop to look at. */
  waitingForYou: boolean;
}

export function taskStatus(f: TaskFacts): SeenStatus {
  const seen = (status: TaskStatus, waitingForYou = false): SeenStatus => ({ status, waitingForYou });
  if (f.lifecycle === 'discarded') return seen('discarded');
  if (f.lifecycle === 'applied') return seen('applied');
  if (!f.worktreeExists) return seen('missing', true);
  if (f.writerAlive) {
    if (f.execution === 'waiting_for_confirmation') return seen('waiting', true);
    if (f.settingUp) return seen('setting up');
    return seen(f.execution ? 'running' : 'starting');
  }
  // Its setup left without a result: the process died in it.
  if (f.settingUp) return seen('crashed', true);
  switch (f.execution) {
    case null:
    case 'running':
      return seen('crashed', true);
    case 'finished':
      return seen('finished', true);
    case 'error':
    case 'stuck':
      return seen('failed', true);
    default:
      // idle, paused, waiting_for_confirmation: the task stopped for the user
      return seen('waiting', true);
  }
}
