// What the task registry keeps of one worktree task. The conversation's log stays the truth for
// what happened in it; this record only says where things are and what the user did with the task.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import { TASK_NAME_PATTERN } from './task-name';

/** active: its worktree is there to work in; applied: brought into the main tree; discarded: worktree and branch removed, log kept. */
export const TASK_LIFECYCLE = ['active', 'applied', 'discarded'] as const;
export type TaskLifecycle = (typeof TASK_LIFECYCLE)[number];

// Built on first use: every `logbook run` loads this module, few read a task record.
export const TaskRecordSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    name: z.string().regex(TASK_NAME_PATTERN),
    branch: z.string().min(1),
    /** The commit the branch started from. */
    base: z.string().regex(/^[0-9a-f]{40,64}$/),
    /** The repository's main working tree, where `apply` brings the change. */
    repository: z.string().min(1),
    worktree: z.string().min(1),
    /** The conversation's log folder, outside the worktree so discarding it keeps the log. */
    log: z.string().min(1),
    task: z.string(),
    created: z.string(),
    status: z.enum(TASK_LIFECYCLE),
    /** When and how the status last changed (applied by merge, discarded), for the list. */
    updated: z.string().optional(),
  }),
);
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** Parses a record file's text; a clear error names the file when it is not one. */
export function parseTaskRecord(text: string, file: string): TaskRecord {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`the task record ${file} is not JSON (${(err as Error).message}).`);
  }
  const parsed = TaskRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the task record ${file} is not valid: ${issue?.path.join('.') || 'record'}: ${issue?.message}.`,
    );
  }
  return parsed.data;
}
