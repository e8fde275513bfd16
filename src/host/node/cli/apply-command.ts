// `logbook apply TASK`: the task's change merged into the working tree of the current folder. The
// task's uncommitted work is committed on its branch first; uncommitted changes here stop it unless
// --force; a conflict is left in git's conflict state for the user, never resolved here.
import { printableLine } from '../../../core/text/printable';
import { expectPositionals, parseCommandArgs } from './args';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliTaskStore, workingTreeOf } from './task-cli';
import { applyObstacle, applyTask } from '../worktrees/apply-task';
import { existsSync, realpathSync } from 'node:fs';
import { resolvePath } from './conversation-dir';
import { readRemoteOrigin } from '../remote/remote-origin';
import { remoteApply } from '../remote/remote-review-command';
import { unlessStepRuns } from '../worktrees/task-steps';
import { applyDecision } from '../worktrees/task-decision-log';
import { recordFromCli } from './task-decisions';

export async function applyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('apply', argv, {
    force: { type: 'boolean' },
    'links-outside': { type: 'boolean' },
    'runtime-api': { type: 'string' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.apply);
    return EXIT.ok;
  }
  const [name] = expectPositionals('apply', positionals, ['TASK']);
  // A remote conversation's folder: the server's change, into this working tree.
  const origin = existsSync(resolvePath(io, name!)) ? readRemoteOrigin(resolvePath(io, name!)) : undefined;
  if (origin) {
    const into = workingTreeOf(io.cwd);
    return remoteApply(
      io,
      resolvePath(io, name!),
      origin,
      into,
      values.force === true,
      values['runtime-api'],
      values['links-outside'] === true,
    );
  }
  if (values['links-outside'] !== undefined)
    throw new UsageError('logbook apply: --links-outside is for a conversation that ran on an agent-server.');
  if (values['runtime-api'] !== undefined)
    throw new UsageError('logbook apply: --runtime-api is for a conversation that ran on an agent-server.');
  const store = cliTaskStore('apply', io);
  const task = store.get(name!);
  if (task.status === 'discarded') throw new Error(`task ${task.name} was discarded; its branch is gone.`);
  const into = workingTreeOf(io.cwd);
  if (existsSync(task.worktree) && realpathSync(into) === realpathSync(task.worktree))
    throw new Error(
      `this is the task's own worktree; run logbook apply ${task.name} in the working tree to bring it into.`,
    );
  const obstacle = applyObstacle(into, values.force === true);
  if (obstacle) throw new Error(obstacle);
  // A window may hold the task's conversation open: applied only while no step of it runs.
  const running = () =>
    new Error(`task ${task.name} is running; apply it when it has stopped (logbook tasks shows its status).`);
  const result = await unlessStepRuns(task.log, running, async () => {
    const applied = applyTask(task, into);
    await recordFromCli('apply', io, task, [applyDecision(task, 'cli', into, applied)]);
    return applied;
  });
  if (result.committedPending)
    io.out(`task ${task.name}: committed its uncommitted work on ${task.branch} first.`);
  switch (result.kind) {
    case 'nothing':
      io.out(`task ${task.name}: ${task.branch} holds nothing that ${into} does not have already.`);
      return EXIT.ok;
    case 'merged':
      store.put({ ...task, status: 'applied', updated: new Date().toISOString() });
      io.out(
        `task ${task.name}: merged ${task.branch} into ${into} (${result.files.length} file(s), commit ${result.commit.slice(0, 10)}).`,
      );
      io.out(`The branch and worktree are kept; logbook discard ${task.name} removes them (the log stays).`);
      return EXIT.ok;
    case 'conflict':
      io.err(`logbook apply: merging ${task.branch} into ${into} stopped on conflicts in:`);
      for (const f of result.conflicted) io.err(printableLine(`  ${f}`));
      io.err(
        "Nothing was resolved for you: the files hold git's conflict markers. Resolve them and " +
          '`git commit`, or `git merge --abort` to go back to how it was.',
      );
      return EXIT.failure;
  }
}
