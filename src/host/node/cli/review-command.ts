// `logbook review TASK`: the task's change against its base as numbered hunks per file; with
// --reject (and the listing's digest) or --reject-file, those hunks or files taken back as the
// editor's review does: reverted in the task's worktree and committed on its branch, one commit per
// decision, so that `logbook apply` brings exactly the rest. --accept and --accept-file change
// nothing on the branch: they record in the task's log what the user reviewed and accepted.
import { existsSync } from 'node:fs';
import { printableLine } from '../../../core/text/printable';
import { expectPositionals, parseCommandArgs } from './args';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { cliTaskStore } from './task-cli';
import { commitPending } from '../worktrees/apply-task';
import {
  readable,
  type Rejected,
  rejectFile,
  rejectHunks,
  type TaskDiff,
  taskDiff,
} from '../worktrees/task-hunks';
import { unlessStepRuns } from '../worktrees/task-steps';
import { acceptDecision, rejectDecision } from '../worktrees/task-decision-log';
import { git } from '../worktrees/git-run';
import { recordFromCli } from './task-decisions';

const SGR = { added: '\x1b[32m', removed: '\x1b[31m', hunk: '\x1b[36m', bold: '\x1b[1m', reset: '\x1b[0m' };

function hunkNumbers(option: string, text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[1-9][0-9]{0,5}$/.test(p)))
    throw new UsageError(
      `logbook review: --${option} takes hunk numbers as the listing shows them (1,3), not "${text}".`,
    );
  return [...new Set(parts.map(Number))];
}

function line(io: CliIo, text: string, style: string): void {
  if (style && io.colour && io.outRaw) io.outRaw(`${style}${printableLine(text)}${SGR.reset}\n`);
  else io.out(text);
}

function list(io: CliIo, name: string, diff: TaskDiff): void {
  const hunks = diff.files.reduce((n, f) => n + f.hunks.length, 0);
  io.out(
    `task ${name}: ${hunks} hunk(s) in ${diff.files.length} file(s) against its base; digest ${diff.digest}`,
  );
  for (const file of diff.files) {
    io.out('');
    line(
      io,
      file.hunks.length === 0 ? `${file.path} (no text hunks: --reject-file only)` : file.path,
      SGR.bold,
    );
    for (const hunk of file.hunks) {
      const [header, ...body] = hunk.lines;
      line(io, `  hunk ${hunk.number}  ${readable(header!)}`, SGR.hunk);
      for (const l of body) {
        const style = l.startsWith('+') ? SGR.added : l.startsWith('-') ? SGR.removed : '';
        line(io, `    ${readable(l)}`, style);
      }
    }
  }
  if (hunks > 0 || diff.files.length > 0) {
    io.out('');
    io.out(
      `To take changes back: logbook review ${name} --reject N[,M…] --digest ${diff.digest}, or --reject-file PATH.`,
    );
    io.out(
      `To record that you accepted them: --accept N[,M…] --digest ${diff.digest}, or --accept-file PATH.`,
    );
  }
}

export async function reviewCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('review', argv, {
    reject: { type: 'string' },
    accept: { type: 'string' },
    digest: { type: 'string' },
    'reject-file': { type: 'string', multiple: true },
    'accept-file': { type: 'string', multiple: true },
  });
  if (values.help) {
    io.out(COMMAND_HELP.review);
    return EXIT.ok;
  }
  const [name] = expectPositionals('review', positionals, ['TASK']);
  const given = (['reject', 'accept', 'reject-file', 'accept-file'] as const).filter((o) =>
    Array.isArray(values[o]) ? values[o].length > 0 : values[o] !== undefined,
  );
  if (given.length > 1)
    throw new UsageError(
      `logbook review: --${given[0]} and --${given[1]} go in separate runs (hunk numbers change).`,
    );
  const option = given[0];
  const byNumber = option === 'reject' || option === 'accept';
  if (byNumber && values.digest === undefined)
    throw new UsageError(
      `logbook review: --${option} needs --digest, as the listing printed it, so that no other hunk is ${option === 'reject' ? 'taken back' : 'recorded'}.`,
    );
  const accepting = option === 'accept' || option === 'accept-file';
  const numbers = byNumber ? hunkNumbers(option, (values[option] as string | undefined) ?? '') : [];
  const files = (option === 'reject-file' ? values['reject-file'] : values['accept-file']) ?? [];
  const store = cliTaskStore('review', io);
  const task = store.get(name!);
  if (task.status === 'discarded') throw new Error(`task ${task.name} was discarded; its branch is gone.`);
  if (!existsSync(task.worktree))
    throw new Error(`task ${task.name}: its worktree ${task.worktree} is gone (logbook tasks --prune).`);
  // The review commits the task's uncommitted work first, as apply and the editor's review do: only
  // while no step of it runs, a window holding its conversation included.
  const running = () =>
    new Error(
      `task ${task.name} is running; review it when it has stopped (logbook tasks shows its status).`,
    );
  const result = await unlessStepRuns(task.log, running, async () => {
    const committed = commitPending(task, 'logbook review');
    const diff = taskDiff(task);
    const known = new Set(diff.files.map((f) => f.path));
    const stranger = files.find((f) => !known.has(f));
    if (stranger !== undefined)
      throw new Error(
        `"${stranger}" is not one of the files task ${task.name} changed (a path, not a pattern).`,
      );
    if (values.digest !== undefined && values.digest !== diff.digest)
      throw new Error(
        `task ${task.name} changed since that listing (digest ${diff.digest}, not ${values.digest}); ` +
          `nothing was ${accepting ? 'recorded' : 'taken back'}. Run logbook review ${task.name} again and use its numbers.`,
      );
    const all = new Set(diff.files.flatMap((f) => f.hunks.map((h) => h.number)));
    const unknown = numbers.find((n) => !all.has(n));
    if (unknown !== undefined)
      throw new Error(`task ${task.name} has no hunk ${unknown} (the listing numbers 1 to ${all.size}).`);
    const header = (n: number | undefined) =>
      diff.files.flatMap((f) => f.hunks).find((h) => h.number === n)?.lines[0];
    if (accepting) {
      // Nothing changes on the branch: the record names the commit whose change was accepted.
      const head = git(task.worktree, ['rev-parse', '--verify', `${task.branch}^{commit}`]).trim();
      const accepted: Rejected[] =
        numbers.length > 0
          ? numbers.map((n) => ({
              path: diff.files.find((f) => f.hunks.some((h) => h.number === n))!.path,
              hunk: n,
              commit: head,
            }))
          : files.map((f) => ({ path: f, commit: head }));
      await recordFromCli(
        'review',
        io,
        task,
        accepted.map((a) => acceptDecision(task, 'cli', a.path, head, a.hunk === undefined, header(a.hunk))),
      );
      return { committed, diff, rejected: [], accepted };
    }
    const rejected: Rejected[] =
      numbers.length > 0 ? rejectHunks(task, diff, numbers) : files.map((f) => rejectFile(task, f));
    await recordFromCli(
      'review',
      io,
      task,
      rejected.map((r) =>
        rejectDecision(task, 'cli', r.path, r.commit, r.hunk === undefined, header(r.hunk)),
      ),
    );
    return { committed, diff, rejected, accepted: [] };
  });
  if (result.committed) io.out(`task ${task.name}: committed its uncommitted work on ${task.branch} first.`);
  if (numbers.length === 0 && files.length === 0) {
    list(io, task.name, result.diff);
    return EXIT.ok;
  }
  for (const a of result.accepted) {
    const what = a.hunk === undefined ? `every change to ${a.path}` : `hunk ${a.hunk} of ${a.path}`;
    io.out(`task ${task.name}: accepted ${what} as on ${a.commit!.slice(0, 10)} (recorded in its log).`);
  }
  for (const r of result.rejected) {
    const what = r.hunk === undefined ? `every change to ${r.path}` : `hunk ${r.hunk} of ${r.path}`;
    const how = r.commit ? `commit ${r.commit.slice(0, 10)} on ${task.branch}` : 'nothing to commit';
    io.out(`task ${task.name}: rejected ${what} (${how}).`);
  }
  if (!accepting)
    io.out(`logbook apply ${task.name} brings the rest; logbook review ${task.name} lists what is left.`);
  return EXIT.ok;
}
