// `logbook diff` and `logbook apply` on a remote conversation's folder: the change the server's
// agent made in its working folder (git, against HEAD there), shown, and brought into the local
// working tree only when asked, by a worktree task's rules (remote-apply.ts).
import { printableLine } from '../../../core/text/printable';
import { ioSettings } from '../cli/cli-settings';
import { EXIT, UsageError } from '../cli/exit-codes';
import { cliSandbox } from '../cli/sandbox-option';
import type { CliIo } from '../cli/io';
import { applyObstacle } from '../worktrees/apply-task';
import { RemoteError } from './agent-server-api';
import type { ServerChange } from './agent-server-git';
import { applyServerChanges, outsideLinks } from './remote-apply';
import { serverChangeSet } from './remote-change-set';
import { changesPatch, changeStatLines } from './remote-diff';
import { openRemoteConversation } from './remote-folder';
import type { RemoteOrigin } from './remote-origin';

async function fetchChanges(
  io: CliIo,
  command: string,
  dir: string,
  origin: RemoteOrigin,
  runtimeApi: string | undefined,
): Promise<{ changes: ServerChange[]; known: boolean; listedFromPatch?: string }> {
  const conv = await openRemoteConversation(io, command, dir, origin, runtimeApi);
  try {
    return await serverChangeSet(conv.target, origin.working_dir, origin.base_commit ?? 'HEAD');
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook ${command}: ${err.message}`);
    throw err;
  }
}

/** What the change is taken against, as the diff's first line says it. */
function baseText(origin: RemoteOrigin): string {
  return origin.base_commit
    ? `commit ${origin.base_commit.slice(0, 12)} there, its HEAD when the conversation started`
    : 'HEAD there; work committed there since the start is not in it';
}

export async function remoteDiff(
  io: CliIo,
  dir: string,
  origin: RemoteOrigin,
  opts: { from: string | undefined; to: string | undefined; stat: boolean; runtimeApi?: string },
): Promise<number> {
  const whole =
    (opts.from === undefined || opts.from === 'start') && (opts.to === undefined || opts.to === 'now');
  if (!whole)
    throw new UsageError(
      `logbook diff: ${dir} ran on ${origin.server}, which keeps no file checkpoints Logbook can read; ` +
        'a remote conversation has one diff, its change now (no --from/--to, or --from start --to now).',
    );
  const { changes, listedFromPatch } = await fetchChanges(io, 'diff', dir, origin, opts.runtimeApi);
  if (listedFromPatch) io.err(listedFromPatchNote(origin, listedFromPatch));
  const n = changes.length;
  io.out(
    `diff on ${origin.server} in ${origin.working_dir} (against ${baseText(origin)}): ${n} file${n === 1 ? '' : 's'} changed`,
  );
  if (opts.stat) {
    for (const l of changeStatLines(changes)) io.out(l);
    return EXIT.ok;
  }
  if (n > 0) io.out(changesPatch(changes));
  return EXIT.ok;
}

/** Said when the server's list of changed files failed and its patch listed them instead. */
function listedFromPatchNote(origin: RemoteOrigin, why: string): string {
  return printableLine(
    `${origin.server} could not list its changed files (${why.slice(0, 200)}); they are read from its git patch.`,
  );
}

export async function remoteApply(
  io: CliIo,
  dir: string,
  origin: RemoteOrigin,
  into: string,
  force: boolean,
  runtimeApi?: string,
  linksOutside = false,
): Promise<number> {
  const obstacle = applyObstacle(into, force);
  if (obstacle) throw new Error(obstacle);
  const { changes, known, listedFromPatch } = await fetchChanges(io, 'apply', dir, origin, runtimeApi);
  if (listedFromPatch) io.err(listedFromPatchNote(origin, listedFromPatch));
  if (changes.length === 0) {
    io.out(`${origin.server} reports no change in ${origin.working_dir}: nothing to apply.`);
    return EXIT.ok;
  }
  // A symlink of the server's may lead nowhere the sandbox hides, as the local file tools may not.
  // One that leads outside the tree is made only when --links-outside says yes (printed below).
  const hidden = cliSandbox(ioSettings('apply', io), io.env).hiddenLocations();
  const askable = linksOutside ? [] : outsideLinks(into, changes, hidden);
  const r = applyServerChanges(into, changes, hidden, () => linksOutside);
  const done = r.applied.length + r.merged.length;
  io.out(
    `applied the change from ${origin.server} to ${into}: ${done} file(s)` +
      (r.merged.length ? ` (${r.merged.length} merged with changes here)` : '') +
      '; nothing was committed.',
  );
  for (const f of [...r.applied, ...r.merged]) io.out(printableLine(`  ${f}`));
  for (const l of r.outside)
    io.out(
      printableLine(
        `  ${l.path}: a symlink that leads outside the working tree, to ${l.leads} (--links-outside)`,
      ),
    );
  if (!known)
    io.err(
      `${origin.server} gave no git patch of its change: an executable bit set there is not set here, ` +
        'a rename is applied as a deletion and an addition, a symlink as a file.',
    );
  if (r.conflicts.length === 0) return EXIT.ok;
  io.err(`logbook apply: ${r.conflicts.length} file(s) need you:`);
  for (const c of r.conflicts) io.err(printableLine(`  ${c.path}: ${c.why}`));
  if (askable.length > 0)
    io.err(
      printableLine(
        `logbook apply --links-outside makes the ${askable.length} symlink(s) above that lead outside the working tree (${askable.map((l) => l.path).join(', ')}).`,
      ),
    );
  io.err('Nothing was resolved for you: resolve the conflict markers, then review with git diff.');
  return EXIT.failure;
}
