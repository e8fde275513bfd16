// `logbook restore CONV_DIR --at EVENT_ID [--yes]`: puts the files of the workspace the conversation
// ran in back as they were at that event. Shows what it will change and asks first; the files as
// they were before are recorded as a checkpoint event of the conversation, so the restore can be undone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliHeadFile } from '../config-dir';
import { conversationEventCodecWith, type StoredConversationEvent } from '../../../core/agent/event-codec';
import {
  checkpointEventValue,
  CHECKPOINT_KEY,
  type CheckpointRecord,
  RESTORE_VERB,
  RestoreFailedError,
} from '../../../core/checkpoints/types';
import { checkpointAt } from '../../../core/checkpoints/timeline';
import { indexNote, resolveRef } from './event-ref';
import { editedOutsideAgent } from '../checkpoints/edited-outside';
import { createEvent, type CreateFields, type Event } from '../../../core/events';
import { openSignedStore } from '../../../core/signing';
import { deriveState } from '../../../core/state';
import { nonEmpty, parseCommandArgs } from './args';
import { isMultiFolderCheckpoint } from '../checkpoints/workspace-store';
import { checkpointStore } from './checkpoint-env';
import { assertConversationDir, conversationId, isDirectory, readEvents } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { readSessionInfo, SESSION_FILE } from './session-file';
import { REMOTE_ORIGIN_FILE } from '../remote/remote-origin';
import { cliSigningIdentity } from './signing';
import { ioSettings } from './cli-settings';
import { printableLine } from '../../../core/text/printable';
import { payloadSchemasForReading } from '../session/read-payloads';

export async function restoreCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('restore', argv, {
    at: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.restore);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('restore', positionals, io);
  const at = nonEmpty('restore', 'at', values.at);
  if (at === undefined) throw new UsageError('logbook restore: --at EVENT_ID is required.');
  assertConversationDir(dir);
  if (existsSync(join(dir, REMOTE_ORIGIN_FILE)))
    throw new UsageError(
      `logbook restore: ${dirArg} ran on an agent-server, which keeps no file checkpoints Logbook can restore. ` +
        `To go on from an earlier point, fork it there: logbook fork ${dirArg} --at ${at}`,
    );
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  if (!isDirectory(info.workspace)) throw new Error(`The workspace ${info.workspace} no longer exists.`);

  // Writable from the start: a conversation in use by a running agent is not restored under it.
  const log = await openSignedStore<StoredConversationEvent>(dir, {
    // A file edit whose payload its tool would not have written is read as damage, never restored.
    codec: conversationEventCodecWith(payloadSchemasForReading()),
    identity: cliSigningIdentity(io, ioSettings('restore', io)),
    conversationId: conversationId(dir),
    headFile: cliHeadFile(io.env, dir),
  });
  try {
    if (log.readOnly) {
      throw new Error(
        `The conversation in ${dir} is in use: ${log.lockHeldBy ?? 'another process holds its lock'}.`,
      );
    }
    const { events, indices } = await readEvents(log);
    const found = resolveRef(events, at, dirArg, { indices });
    const note = indexNote(at, found);
    if (note) io.err(note);
    const eventId = found.eventId;
    const entry = checkpointAt(events, eventId);
    if (!entry) {
      io.out(
        `No checkpoint at or after event ${eventId}: the agent has changed no files since. Nothing to restore.`,
      );
      return EXIT.ok;
    }
    if (isMultiFolderCheckpoint(entry.value.checkpoint))
      throw new Error(
        `Checkpoint ${entry.eventId} covers the folders of a multi-root VS Code window; restore it there (Restore files to here).`,
      );
    const store = checkpointStore(info.workspace, ioSettings('restore', io), io.env);
    const plan = await store.plan(entry.value.checkpoint);
    io.out(
      `Restoring ${info.workspace} to checkpoint ${entry.value.checkpoint.slice(0, 12)} ` +
        `(event ${indices[entry.index] ?? entry.index}, ${entry.eventId}, ${entry.timestamp}).`,
    );
    if (!plan.changes.length) {
      io.out('The files already match that checkpoint. Nothing to restore.');
      return EXIT.ok;
    }
    const edited = await editedOutsideAgent(store, events, entry, plan);
    const mark =
      edited.source === 'log'
        ? 'edited outside the agent after this point'
        : 'changed after the agent’s last step';
    for (const c of plan.changes) {
      io.out(
        `  ${RESTORE_VERB[c.status].padEnd(9)} ${printableLine(c.path)}${edited.paths.has(c.path) ? `  (${mark})` : ''}`,
      );
    }
    io.out(
      `${plan.changes.length} file${plan.changes.length === 1 ? '' : 's'} will change. ` +
        'Ignored, excluded and over-the-size-cap files stay as they are.',
    );
    if (edited.paths.size) {
      const n = edited.paths.size;
      io.out(
        `${n} of them ${n === 1 ? 'was' : 'were'} ${mark}` +
          (edited.source === 'log'
            ? '.'
            : ' (by modification time: this conversation did not record the files after each action).'),
      );
    }
    if (!values.yes) {
      const answer = io.ask ? await io.ask('Restore these files? [y/N] ') : undefined;
      if (!answer || !/^y(es)?$/i.test(answer.trim())) {
        io.err('Nothing restored. Answer y to restore, or pass --yes.');
        return EXIT.failure;
      }
    }
    const recordBefore = async (before: CheckpointRecord): Promise<Event> => {
      const event = createEvent('ConversationStateUpdateEvent', {
        key: CHECKPOINT_KEY,
        value: checkpointEventValue(before, { reason: 'restore', restoredTo: entry.eventId }),
        parent_id: deriveState(events).head,
      } as CreateFields<'ConversationStateUpdateEvent'>) as Event;
      await log.append(event as StoredConversationEvent, { durable: true });
      return event;
    };
    let result;
    try {
      result = await store.restore(entry.value.checkpoint, info.id);
    } catch (err) {
      if (!(err instanceof RestoreFailedError)) throw err;
      // Some files may have changed already: the state before is recorded in the log as well, so
      // the way back is an event like any other.
      const event = await recordBefore(err.before);
      io.err(`logbook restore: ${err.message}`);
      io.err(`To go back: logbook restore ${dirArg} --at ${event.id}`);
      return EXIT.failure;
    }
    const event = await recordBefore(result.before);
    io.out(`Restored ${result.changes.length} file${result.changes.length === 1 ? '' : 's'}.`);
    io.out(`To undo: logbook restore ${dirArg} --at ${event.id}`);
    return EXIT.ok;
  } finally {
    await log.close();
  }
}
