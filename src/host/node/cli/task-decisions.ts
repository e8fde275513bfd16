// `logbook review`, `apply` and `discard` record what they did in the task's signed log, signed
// with the CLI's key: appended here, or left for the window that holds the log open.
import type { TaskDecision } from '../../../core/worktrees/task-decision';
import { cliHeadFile } from '../config-dir';
import { recordTaskDecisions } from '../worktrees/task-decision-log';
import { cliSettings } from './cli-settings';
import type { CliIo } from './io';
import { cliSigningIdentity } from './signing';

export async function recordFromCli(
  command: string,
  io: CliIo,
  task: { name: string; log: string },
  decisions: readonly TaskDecision[],
): Promise<void> {
  const settings = cliSettings(command, io.env, { warn: (line) => io.err(line) });
  const how = await recordTaskDecisions(task.log, decisions, {
    signing: cliSigningIdentity(io, settings),
    headFile: (_id, dir) => cliHeadFile(io.env, dir),
    holder: `logbook ${command} (pid ${process.pid})`,
  });
  if (how === 'queued')
    io.err(`task ${task.name}: the window that holds its conversation records this in its log.`);
  if (how === 'no log')
    io.err(`task ${task.name} has no conversation log (its start failed): this is not recorded in one.`);
}
