// `logbook diff CONV_DIR --from A --to B [--stat]`: the workspace's changes between two points of a
// conversation, from the file checkpoints its log recorded. A point is an event id, a checkpoint id
// or a unique prefix of either; the files at an event are those of the first checkpoint at or after
// it, or, when the agent changed no files after it, the files its last action left (else the files
// now): filesAtPoint, read forward from the event (files-at-index.ts).
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import type { EventStore } from '../../../core/log';
import { printableLine } from '../../../core/text/printable';
import { isMultiFolderCheckpoint } from '../checkpoints/workspace-store';
import { nonEmpty, parseCommandArgs } from './args';
import { checkpointStore } from './checkpoint-env';
import { ioSettings } from './cli-settings';
import { assertConversationDir, openReadOnly } from './conversation-dir';
import { indexNote } from './event-ref';
import { eventsOnce, type EventsOnce, findEvent } from './find-event';
import { filesAtIndex, hasCheckpointBefore } from '../time-travel/files-at-index';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { readSessionInfo, SESSION_FILE } from './session-file';
import { readRemoteOrigin } from '../remote/remote-origin';
import { remoteDiff } from '../remote/remote-review-command';

type Log = EventStore<StoredConversationEvent>;

/** Where a point's files are: a checkpoint id, or undefined for the workspace's files now. */
interface Point {
  checkpoint: string | undefined;
  label: string;
  /** Said when a bare number was read as an index. */
  note: string | undefined;
}

export async function diffCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('diff', argv, {
    from: { type: 'string' },
    to: { type: 'string' },
    stat: { type: 'boolean' },
    'runtime-api': { type: 'string' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.diff);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('diff', positionals, io);
  const from = nonEmpty('diff', 'from', values.from);
  const to = nonEmpty('diff', 'to', values.to);
  const origin = readRemoteOrigin(dir);
  if (origin) {
    const runtimeApi = values['runtime-api'];
    return remoteDiff(io, dir, origin, {
      from,
      to,
      stat: values.stat === true,
      ...(runtimeApi !== undefined ? { runtimeApi } : {}),
    });
  }
  if (values['runtime-api'] !== undefined)
    throw new UsageError('logbook diff: --runtime-api is for a conversation that ran on an agent-server.');
  if (from === undefined || to === undefined)
    throw new UsageError('logbook diff: --from ID and --to ID are both required.');
  assertConversationDir(dir);
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  const log = await openReadOnly(dir);
  let a: Point;
  let b: Point;
  try {
    // Each point is read forward from its event, not from the first event of the log.
    const all = eventsOnce(log);
    a = await pointAt(log, from, dirArg, all);
    b = await pointAt(log, to, dirArg, all);
    if (!a.checkpoint && !b.checkpoint && !(await hasCheckpointBefore(log, log.length)))
      throw new Error(
        `The conversation in ${dir} recorded no file checkpoints (checkpoints were off, or no action could change files): there is nothing to compare.`,
      );
  } finally {
    await log.close();
  }
  // A bare number was read as an index: said on stderr, the diff itself stays on stdout.
  for (const p of [a, b]) if (p.note) io.err(p.note);
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

async function pointAt(log: Log, ref: string, dirArg: string, all: EventsOnce): Promise<Point> {
  const found = await findEvent(log, ref, dirArg, all);
  const { index, eventId } = found;
  const note = indexNote(ref, found);
  const multiFolder = (checkpoint: string, event: string): void => {
    if (isMultiFolderCheckpoint(checkpoint))
      throw new Error(
        `Checkpoint ${event} covers the folders of a multi-root VS Code window; compare it there.`,
      );
  };
  // A checkpoint id names those files exactly, an after-action one included.
  if (found.checkpoint) {
    multiFolder(found.checkpoint, eventId);
    return {
      checkpoint: found.checkpoint,
      label: `event ${index} (checkpoint ${found.checkpoint.slice(0, 12)})`,
      note,
    };
  }
  const at = await filesAtIndex(log, index, eventId);
  if (at.kind === 'checkpoint') {
    multiFolder(at.checkpoint, at.entry.eventId);
    return {
      checkpoint: at.checkpoint,
      label: `event ${index} (checkpoint ${at.checkpoint.slice(0, 12)})`,
      note,
    };
  }
  if (at.kind === 'after-last')
    return {
      checkpoint: at.checkpoint,
      label: `event ${index} (checkpoint ${at.checkpoint.slice(0, 12)}, after the last action)`,
      note,
    };
  return { checkpoint: undefined, label: `event ${index} (the files now)`, note };
}
