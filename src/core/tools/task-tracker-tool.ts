// `task_tracker` (OpenHands TaskTrackerAction / TaskTrackerObservation): the agent's plan. The
// conversation state derives the task list from these events; the tool keeps the latest plan only
// to answer `view`. It touches nothing outside the conversation, so it is read-only.
import { z } from 'zod';
import { lazySchema } from '../schema/lazy-schema';
import type { ToolObservation, ToolSpec } from './tool';
import { errorObservation, observation } from './observation';
import { BUILTIN_PARAMETERS } from './builtin-parameters';

export const TASK_TRACKER_TOOL_NAME = 'task_tracker';
const ACTION_KIND = 'TaskTrackerAction';
const OBSERVATION_KIND = 'TaskTrackerObservation';

export const TaskStatusSchema = lazySchema(() => z.enum(['todo', 'in_progress', 'done']));
export const TaskItemSchema = lazySchema(() =>
  z.object({
    title: z.string().min(1).describe('What the task achieves, in a few words.'),
    notes: z.string().default('').describe('Details, findings or the next step.'),
    status: TaskStatusSchema.default('todo').describe('todo, in_progress or done.'),
  }),
);
export type TaskItem = z.infer<typeof TaskItemSchema>;

const TaskTrackerArgsSchema = lazySchema(() =>
  z
    .object({
      command: z
        .enum(['view', 'plan'])
        .describe('view: show the current task list. plan: replace it with task_list.'),
      task_list: z
        .array(TaskItemSchema)
        .optional()
        .describe(
          'plan: the complete list of tasks, in order (send all of them, not only the changed ones).',
        ),
    })
    .superRefine((args, ctx) => {
      if (args.command === 'plan' && args.task_list === undefined) {
        ctx.addIssue({ code: 'custom', path: ['task_list'], message: 'required by plan' });
      }
    }),
);
export type TaskTrackerArgs = z.infer<typeof TaskTrackerArgsSchema>;

const DESCRIPTION = `Keep a plan for multi-step work and show progress to the user.
* plan: replace the task list with task_list (all tasks, in order, each with a status: todo, in_progress or done). Mark a task in_progress when you start it and done as soon as it is finished; keep one task in_progress at a time.
* view: show the current list.
Use it for work with several steps; skip it for a single quick change.`;

const ActionPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string(),
    task_list: z.array(z.looseObject({ title: z.string() })).optional(),
  }),
);
const ObservationPayloadSchema = lazySchema(() =>
  z.looseObject({
    command: z.string().optional(),
    task_list: z.array(z.looseObject({ title: z.string() })).optional(),
  }),
);

export interface TaskTrackerToolOptions {
  /** The plan so far, e.g. derived from the log when a conversation is reopened. */
  initialTasks?: readonly TaskItem[];
}

export function createTaskTrackerTool(options: TaskTrackerToolOptions = {}): ToolSpec<TaskTrackerArgs> {
  let tasks: TaskItem[] = [...(options.initialTasks ?? [])];

  async function execute(args: TaskTrackerArgs): Promise<ToolObservation> {
    if (args.command === 'plan') {
      const list = args.task_list ?? [];
      const inProgress = list.filter((t) => t.status === 'in_progress').length;
      if (inProgress > 1) {
        return errorObservation(
          OBSERVATION_KIND,
          `${inProgress} tasks are in_progress; keep one in progress at a time. The plan was not changed.`,
          { command: args.command, task_list: tasks },
        );
      }
      tasks = list.map((t) => ({ ...t }));
      return observation(OBSERVATION_KIND, `Updated the task list.\n${formatTasks(tasks)}`, {
        command: args.command,
        task_list: tasks,
      });
    }
    return observation(OBSERVATION_KIND, formatTasks(tasks), { command: args.command, task_list: tasks });
  }

  return {
    name: TASK_TRACKER_TOOL_NAME,
    description: DESCRIPTION,
    readOnly: true,
    actionKind: ACTION_KIND,
    observationKind: OBSERVATION_KIND,
    argsSchema: TaskTrackerArgsSchema,
    parametersJson: BUILTIN_PARAMETERS.task_tracker,
    execute,
    toActionFields: (args) => ({ command: args.command, task_list: args.task_list ?? [] }),
    actionPayloadSchema: ActionPayloadSchema,
    observationPayloadSchema: ObservationPayloadSchema,
  };
}

const MARKS: Record<TaskItem['status'], string> = { todo: '[ ]', in_progress: '[~]', done: '[x]' };

export function formatTasks(tasks: readonly TaskItem[]): string {
  if (tasks.length === 0) return 'The task list is empty.';
  const done = tasks.filter((t) => t.status === 'done').length;
  const lines = [`Tasks (${done} of ${tasks.length} done):`];
  tasks.forEach((task, i) => {
    lines.push(`${i + 1}. ${MARKS[task.status]} ${task.title}`);
    if (task.notes.trim() !== '') lines.push(`   ${task.notes.trim().replace(/\n/g, '\n   ')}`);
  });
  return lines.join('\n');
}
