// `logbook diff CONV_DIR --from A --to B [--stat]`: the workspace's changes between two points of a
// conversation, from the file checkpoints its log recorded. A point is an event id, a checkpoint id
// or a unique prefix of either; the files at an event are those of the first checkpoint at or after
// it, or, when the agent changed no files after it, the files its last action left (else the files
// now): filesAtPoint.
import { filesAtPoint } from '../../../core/checkpoints/timeline';
import { CHECKPOINT_KEY } from '../../../core/checkpoints/types';
import type { Event } from '../../../core/events';
import { printableLine } from '../../../core/text/printable';
import { isMultiFolderCheckpoint } from '../checkpoints/workspace-store';
import { expectPositionals, nonEmpty, parseCommandArgs } from './args';
import { checkpointStore } from './checkpoint-env';
import { ioSettings } from './cli-settings';
import { assertConversationDir, openReadOnly, readEvents, resolvePath } from './conversation-dir';
import { eventIdFor } from './event-ref';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { readSessionInfo, SESSION_FILE } from './session-file';

/** Where a point's files are: a checkpoint id, or undefined for the workspace's files now. */
interface Point {
  checkpoint: string | undefined;
  label: string;
}

export async function diffCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    stat: { type: 'boolean' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.diff);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('diff', positionals, ['CONV_DIR']);
  const from = nonEmpty('diff', 'from', values.from);
  const to = nonEmpty('diff', 'to', values.to);
  if (from === undefined || to === undefined)
    throw new UsageError('logbook diff: --from ID and --to ID are both required.');
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  const log = await openReadOnly(dir);
  let events: Event[];
  try {
    ({ events } = await readEvents(log));
  } finally {
    await log.close();
  }
  if (!events.some((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === CHECKPOINT_KEY))
    throw new Error(
      `The conversation in ${dir} recorded no file checkpoints (checkpoints were off, or no action could change files): there is nothing to compare.`,
    );
  const a = pointAt(events, from, dirArg!);
  const b = pointAt(events, to, dirArg!);
  const store = checkpointStore(info.workspace, ioSettings('diff', io), io.env);
  const { changes, patch } = await store.diff(a.checkpoint, b.checkpoint);
  io.out(
    `diff from ${a.label} to ${b.label}: ${changes.length} file${changes.length === 1 ? '' : 's'} changed`,
  );
  if (values.stat) {
    for (const c of changes) io.out(printableLine(`  ${c.status} ${c.from ? `${c.from} -> ` : ''}${c.path}`));
    return EXIT.ok;
  }
  if (patch) io.out(patch.replace(/\n$/, ''));
  return EXIT.ok;
}

function pointAt(events: readonly Event[], ref: string, dirArg: string): Point {
  const eventId = eventIdFor(events, ref, dirArg);
  const index = events.findIndex((e) => e.id === eventId);
  const at = filesAtPoint(events, eventId);
  if (at.kind === 'checkpoint') {
    if (isMultiFolderCheckpoint(at.checkpoint))
      throw new Error(
        `Checkpoint ${at.entry.eventId} covers the folders of a multi-root VS Code window; compare it there.`,
      );
    return {
      checkpoint: at.checkpoint,
      label: `event ${index} (checkpoint ${at.checkpoint.slice(0, 12)})`,
    };
  }
  if (at.kind === 'after-last')
    return {
      checkpoint: at.checkpoint,
      label: `event ${index} (checkpoint ${at.checkpoint.slice(0, 12)}, after the last action)`,
    };
  return { checkpoint: undefined, label: `event ${index} (the files now)` };
}
