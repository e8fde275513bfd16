// `logbook run --worktree`: the task's branch and worktree made before the conversation starts,
// and said on stderr (stdout stays the conversation's output, JSON lines with --json).
import { printableLine } from '../../../core/text/printable';
import type { CliSettings } from './cli-settings';
import type { CliIo } from './io';
import { taskStoreFor, workingTreeOf } from './task-cli';
import { createTask } from '../worktrees/create-task';

export interface StartedTask {
  name: string;
  worktree: string;
  log: string;
}

export function startTask(
  io: CliIo,
  settings: CliSettings,
  opts: { from: string; task: string; name: string | undefined; carry: boolean },
): StartedTask {
  const from = workingTreeOf(opts.from);
  const store = taskStoreFor(settings.get<string | null>('worktrees.dir'), io, from);
  const { record, carried } = createTask(store, {
    from,
    task: opts.task,
    carry: opts.carry,
    ...(opts.name !== undefined ? { name: opts.name } : {}),
  });
  io.err(
    printableLine(
      `task ${record.name}: branch ${record.branch} from ${record.base.slice(0, 10)}, worktree ${record.worktree}`,
    ),
  );
  if (carried)
    io.err(
      `task ${record.name}: carried your uncommitted change over (${carried.tracked} tracked, ` +
        `${carried.untracked} untracked file(s)); your working tree is unchanged.`,
    );
  return { name: record.name, worktree: record.worktree, log: record.log };
}
