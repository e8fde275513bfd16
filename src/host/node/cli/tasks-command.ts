// `logbook tasks`: the worktree tasks of the current repository, with their status (running,
// waiting, finished, failed, crashed...), branch, files changed against the base, cost and a mark
// when one waits for the user. `--prune` shows what cleanup would do; `--prune --yes` does it.
import { formatCost } from '../../../core/format/counts';
import { printableLine } from '../../../core/text/printable';
import { parseCommandArgs } from './args';
import { openReadOnly } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliTaskStore, workingTreeOf } from './task-cli';
import { acceptSetup, repositorySetup, SETUP_FILE } from '../worktrees/setup-source';
import { type TaskFactsReport, taskFacts } from '../worktrees/task-facts';
import { applyPrunePlan, prunePlan } from '../worktrees/prune-tasks';
import { stopTaskProcess } from '../worktrees/stop-tasks';
import type { TaskStore } from '../worktrees/task-store';

export async function tasksCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('tasks', argv, {
    json: { type: 'boolean' },
    prune: { type: 'boolean' },
    yes: { type: 'boolean' },
    'accept-setup': { type: 'boolean' },
    'stop-all': { type: 'boolean' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.tasks);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new UsageError(`logbook tasks: expected no arguments, got ${JSON.stringify(positionals[0])}.`);
  if (values.yes && !values.prune) throw new UsageError('logbook tasks: --yes goes with --prune.');
  if (values['accept-setup']) return acceptRepositorySetup(io);
  const store = cliTaskStore('tasks', io);
  if (values['stop-all']) return stopAll(io, store);
  if (values.prune) return prune(io, store, values.yes === true);
  const records = store.list((file, err) => io.err(`logbook tasks: skipped ${file}: ${err.message}`));
  const reports: TaskFactsReport[] = [];
  for (const r of records) reports.push(await taskFacts(r, openReadOnly));
  if (values.json) {
    io.out(JSON.stringify({ repository: store.repo.top, tasks: reports }));
    return EXIT.ok;
  }
  if (reports.length === 0) {
    io.out(`No tasks in ${store.repo.top}. Start one: logbook run --worktree "task".`);
    return EXIT.ok;
  }
  for (const line of taskLines(reports)) io.out(printableLine(line));
  return EXIT.ok;
}

function taskLines(reports: readonly TaskFactsReport[]): string[] {
  const rows = reports.map((t) => [
    t.waiting_for_you ? '*' : ' ',
    t.name,
    t.status,
    t.branch,
    t.files_changed === null ? '-' : String(t.files_changed),
    t.cost === null ? '-' : formatCost(t.cost),
  ]);
  const head = [' ', 'TASK', 'STATUS', 'BRANCH', 'FILES', 'COST'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [fmt(head), ...rows.map(fmt)];
  if (reports.some((t) => t.waiting_for_you))
    out.push('* waits for you: review (logbook show NAME), approve, apply or discard.');
  if (reports.some((t) => t.status === 'crashed'))
    out.push(
      'crashed: its process is gone; the worktree and log are kept (logbook show NAME, then run --store LOG to go on).',
    );
  return out;
}

function prune(io: CliIo, store: TaskStore, yes: boolean): number {
  const plan = prunePlan(store);
  if (plan.stale.length === 0 && plan.emptyMissing.length === 0 && plan.keptMissing.length === 0) {
    io.out('Nothing to prune: every worktree git knows of is there.');
    return EXIT.ok;
  }
  for (const s of plan.stale) io.out(printableLine(`git worktree prune: ${s}`));
  for (const t of plan.emptyMissing)
    io.out(
      `task ${t.name}: worktree gone, nothing on ${t.branch}: marked discarded, branch deleted (log kept)`,
    );
  for (const { task, commits } of plan.keptMissing)
    io.out(
      `task ${task.name}: worktree gone, ${commits} commit(s) on ${task.branch}: kept (logbook apply or discard ${task.name})`,
    );
  if (!yes) {
    io.out('Nothing was changed. Run logbook tasks --prune --yes to do the above.');
    return EXIT.ok;
  }
  applyPrunePlan(store, plan);
  io.out('Pruned.');
  return EXIT.ok;
}

/** Interrupts every running task's CLI process, as Ctrl+C in its terminal would. */
function stopAll(io: CliIo, store: TaskStore): number {
  let running = 0;
  for (const task of store.list()) {
    if (task.status !== 'active') continue;
    const outcome = stopTaskProcess(task, process.argv[1]);
    if (outcome.kind === 'idle') continue;
    running += 1;
    io.out(
      outcome.kind === 'stopped'
        ? `task ${task.name}: stopped (process ${outcome.pid} interrupted, as Ctrl+C would)`
        : `task ${task.name}: left running: ${outcome.why}`,
    );
  }
  if (running === 0) io.out('No task is running.');
  return EXIT.ok;
}

/** Prints the repository's setup file as committed and accepts it as it is. */
function acceptRepositorySetup(io: CliIo): number {
  const repo = workingTreeOf(io.cwd);
  const file = repositorySetup(repo);
  if (!file) {
    io.out(`${repo} has no ${SETUP_FILE} at HEAD; nothing to accept.`);
    return EXIT.ok;
  }
  for (const line of file.command.split('\n')) io.out(printableLine(`  ${line}`));
  acceptSetup(io.env, repo, file);
  io.out(
    `Accepted ${file.origin} as above (${file.fingerprint.slice(0, 12)}) for ${repo}; a change asks again.`,
  );
  return EXIT.ok;
}
