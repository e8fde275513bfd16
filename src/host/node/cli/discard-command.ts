// `logbook discard TASK`: the task's worktree and branch removed; its conversation log and record
// kept, so what it did can still be read (logbook show TASK) and verified.
import { expectPositionals, parseCommandArgs } from './args';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliTaskStore } from './task-cli';
import { discardTask } from '../worktrees/discard-task';
import { unlessStepRuns } from '../worktrees/task-steps';
import { discardDecision } from '../worktrees/task-decision-log';
import { recordFromCli } from './task-decisions';

export async function discardCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('discard', argv, {});
  if (values.help) {
    io.out(COMMAND_HELP.discard);
    return EXIT.ok;
  }
  const [name] = expectPositionals('discard', positionals, ['TASK']);
  const store = cliTaskStore('discard', io);
  const task = store.get(name!);
  if (task.status === 'discarded') {
    io.out(`task ${task.name} was discarded already; its log is in ${task.log}.`);
    return EXIT.ok;
  }
  // A window may hold the task's conversation open: discarded only while no step of it runs.
  const running = () =>
    new Error(`task ${task.name} is running; stop it first (logbook tasks shows its status).`);
  const done = await unlessStepRuns(task.log, running, async () => {
    const removed = discardTask(task, store.repo.top);
    store.put({ ...task, status: 'discarded', updated: new Date().toISOString() });
    await recordFromCli('discard', io, task, [discardDecision(task, 'cli')]);
    return removed;
  });
  const what = [done.worktreeRemoved ? 'worktree' : '', done.branchDeleted ? `branch ${task.branch}` : '']
    .filter((w) => w !== '')
    .join(' and ');
  io.out(
    `task ${task.name}: removed ${what || 'nothing (worktree and branch were gone)'}; the log is kept in ${task.log}.`,
  );
  return EXIT.ok;
}
