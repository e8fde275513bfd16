// `logbook checkpoints CONV_DIR`: the workspace checkpoints a conversation recorded.
import { checkpointEntries } from '../../../core/checkpoints/timeline';
import { expectPositionals, parseCommandArgs } from './args';
import { assertConversationDir, openReadOnly, readEvents, resolvePath } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { checkpointStore } from './checkpoint-env';
import { readSessionInfo, SESSION_FILE } from './session-file';

export async function checkpointsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('checkpoints', argv, {
    json: { type: 'boolean' },
    release: { type: 'boolean' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.checkpoints);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('checkpoints', positionals, ['CONV_DIR']);
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  if (values.release) return release(dir, io);
  const store = await openReadOnly(dir);
  let entries;
  try {
    entries = checkpointEntries((await readEvents(store)).events);
  } finally {
    await store.close();
  }
  if (values.json) {
    io.out(
      JSON.stringify(
        entries.map((e) => ({ index: e.index, id: e.eventId, timestamp: e.timestamp, ...e.value })),
      ),
    );
    return EXIT.ok;
  }
  if (!entries.length) {
    io.out('No checkpoints: the agent has not run an action that can change files, or checkpoints were off.');
    return EXIT.ok;
  }
  io.out('index  event id                              time                      files changed  before');
  for (const e of entries) {
    const v = e.value;
    const what =
      v.reason === 'restore' ? `restore to ${v.restored_to ?? '?'}` : `action ${v.action_id ?? '?'}`;
    const skipped = v.skipped.length ? `, ${v.skipped.length} skipped (over the size cap)` : '';
    io.out(
      `${String(e.index).padEnd(6)} ${e.eventId}  ${e.timestamp.padEnd(24)}  ${String(v.files_changed).padStart(13)}  ${what}${skipped}`,
    );
  }
  return EXIT.ok;
}

/** Lets go of a conversation's checkpoints (before deleting it): what others share stays. */
async function release(dir: string, io: CliIo): Promise<number> {
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  const store = checkpointStore('checkpoints', info.workspace, io.env);
  const held = (await store.held(info.id)).length;
  await store.release(info.id);
  io.out(
    `Released the ${held} checkpoint${held === 1 ? '' : 's'} of conversation ${info.id}; files other conversations' checkpoints share stay.`,
  );
  return EXIT.ok;
}
