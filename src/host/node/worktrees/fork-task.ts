// "Continue from here" in a worktree task's conversation: a new task, on a branch and worktree of
// its own, whose files are the source task's files at that point (from the checkpoint that holds
// them) and whose conversation is the source's up to that point. The source task, its branch, its
// worktree and its log stay as they were, to be reviewed, applied or discarded on their own. The
// new task starts from the source's base commit, so its review and apply show its whole change.
import { rmSync } from 'node:fs';
import { checkpointAt, checkpointEntries, lastAfterState } from '../../../core/checkpoints/timeline';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY } from '../../../core/checkpoints/types';
import type { Event } from '../../../core/events';
import { branchOf } from '../../../core/state';
import type { CheckpointsToCopy } from '../checkpoints/checkpoint-copy';
import { type TaskRecord, isTaskName } from '../../../core/worktrees';
import { createTask } from './create-task';
import { discardTask } from './discard-task';
import { git, gitTry } from './git-run';
import type { TaskStore } from './task-store';
import { releaseTaskOwner } from './task-owner';

/** Where the files of the point continued from come from. */
export type FilesAt =
  /** A checkpoint of the source task's worktree holds them. */
  | { checkpoint: string }
  /** No action had run yet: the source's base commit. */
  | { base: true };

/**
 * The files of the source task at `eventId`: the checkpoint that holds them, the newest after-state
 * when the agent changed nothing since, or the base when no action had run. Throws when actions ran
 * but no checkpoint recorded them (checkpoints were off): the files at that point are not known.
 */
export function filesAt(events: readonly Event[], eventId: string): FilesAt {
  const at = checkpointAt(events, eventId);
  if (at === null) throw new Error(`the conversation has no event ${eventId} to continue from.`);
  if (at) return { checkpoint: at.value.checkpoint };
  const after = lastAfterState(events);
  if (after) return { checkpoint: after };
  const upTo = events.slice(0, events.findIndex((e) => e.id === eventId) + 1);
  if (checkpointEntries(events).length === 0 && !upTo.some((e) => e.kind === 'ActionEvent'))
    return { base: true };
  throw new Error(
    'no checkpoint holds the files at that point (checkpoints were off while the task ran), so it cannot be continued from there; start a new task instead.',
  );
}

/** The checkpoints the events a fork at `eventId` copies name: what the new task's store must hold. */
export function checkpointsToCopy(events: readonly Event[], eventId: string): CheckpointsToCopy {
  const ids: string[] = [];
  let newest: string | undefined;
  let after: string | undefined;
  for (const e of branchOf(events, eventId)) {
    if (e.kind !== 'ConversationStateUpdateEvent') continue;
    if (e.key !== CHECKPOINT_KEY && e.key !== CHECKPOINT_AFTER_KEY) continue;
    const id = (e.value as { checkpoint?: unknown } | null)?.checkpoint;
    if (typeof id !== 'string') continue;
    ids.push(id);
    if (e.key === CHECKPOINT_KEY) newest = id;
    else after = id;
  }
  return { ids, ...(newest ? { newest } : {}), ...(after ? { after } : {}) };
}

/** `source`'s name with the first free number after it (`fix-login-2`), a task name and branch of its own. */
export function continuedName(store: TaskStore, source: TaskRecord): string {
  for (let n = 2; n < 1000; n++) {
    const suffix = `-${n}`;
    const name = `${source.name.replace(/-[0-9]+$/, '').slice(0, 48 - suffix.length)}${suffix}`.replace(
      /-+(?=-[0-9]+$)/,
      '',
    );
    if (!isTaskName(name) || store.has(name)) continue;
    const branch = gitTry(source.repository, [
      'rev-parse',
      '--verify',
      '--quiet',
      `refs/heads/logbook/${name}`,
    ]);
    if (branch.code !== 0) return name;
  }
  throw new Error(`no free name after ${source.name}; give one.`);
}

export interface ContinueOptions {
  /** The new task's name (default: the source's with a number). */
  name?: string;
  files: FilesAt;
  /** Writes a checkpoint's files into a folder (the source's checkpoint store). */
  materialize(checkpoint: string, target: string): Promise<void>;
}

/**
 * Makes the new task: its branch from the source's base, its worktree holding the files at the
 * point continued from, as uncommitted work against the base (review and apply commit it, as for
 * any task). On a failure, everything made here is removed again, and nothing of the source is
 * touched. The caller forks the conversation into the record's `log`.
 */
export async function createContinuedTask(
  store: TaskStore,
  source: TaskRecord,
  opts: ContinueOptions,
): Promise<TaskRecord> {
  if (source.status === 'discarded')
    throw new Error(`task ${source.name} was discarded; its worktree and checkpoints' folder are gone.`);
  const { record } = createTask(store, {
    from: source.repository,
    task: source.task,
    name: opts.name ?? continuedName(store, source),
    base: source.base,
    checkout: false,
  });
  try {
    if ('checkpoint' in opts.files) {
      await opts.materialize(opts.files.checkpoint, record.worktree);
      // The index is the base's, so the checkpoint's files read as the task's uncommitted change.
      git(record.worktree, ['reset', '--quiet']);
    } else {
      git(record.worktree, ['reset', '--quiet', '--hard']);
    }
    return record;
  } catch (err) {
    discardTask(record, source.repository);
    store.remove(record.name);
    rmSync(record.log, { recursive: true, force: true });
    releaseTaskOwner(record.log);
    throw new Error(
      `the files at that point could not be put in task ${record.name}'s worktree, so it was not made: ${(err as Error).message}`,
    );
  }
}
