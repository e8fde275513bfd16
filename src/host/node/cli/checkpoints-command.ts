// `logbook checkpoints CONV_DIR`: the workspace checkpoints a conversation recorded.
import { checkpointEntries } from '../../../core/checkpoints/timeline';
import { expectPositionals, parseCommandArgs } from './args';
import { assertConversationDir, openReadOnly, readEvents, resolvePath } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { checkpointStore } from './checkpoint-env';
import { ioSettings } from './cli-settings';
import { readSessionInfo, SESSION_FILE } from './session-file';
import type { ActionEvent } from '../../../core/events';
import type { CheckpointEventValue } from '../../../core/checkpoints/types';
import { printableLine } from '../../../core/text/printable';
import { actionWhat } from './event-line';

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
  const actions = new Map<string, ActionEvent>();
  try {
    const { events } = await readEvents(store);
    entries = checkpointEntries(events);
    for (const e of events) if (e.kind === 'ActionEvent') actions.set(e.id, e);
  } finally {
    await store.close();
  }
  if (values.json) {
    io.out(
      JSON.stringify(
        entries.map((e) => {
          const action = e.value.action_id ? actions.get(e.value.action_id) : undefined;
          return {
            index: e.index,
            id: e.eventId,
            timestamp: e.timestamp,
            ...e.value,
            // What the checkpoint precedes, in words: the tool and its command or path.
            action: action ? { tool: action.tool_name, what: actionWhat(action) } : null,
          };
        }),
      ),
    );
    return EXIT.ok;
  }
  if (!entries.length) {
    io.out('No checkpoints: the agent has not run an action that can change files, or checkpoints were off.');
    return EXIT.ok;
  }
  io.out(
    'index  event id                              checkpoint    time                      files changed  before',
  );
  for (const e of entries) {
    const v = e.value;
    const skipped = v.skipped.length ? `, ${v.skipped.length} skipped (over the size cap)` : '';
    io.out(
      printableLine(
        `${String(e.index).padEnd(6)} ${e.eventId}  ${v.checkpoint.slice(0, 12)}  ${e.timestamp.padEnd(24)}  ` +
          `${String(v.files_changed).padStart(13)}  ${precededBy(v, actions)}${skipped}`,
      ),
    );
  }
  io.out(
    'Restore with: logbook restore CONV_DIR --at ID (an event id, a checkpoint id, or a prefix of either).',
  );
  return EXIT.ok;
}

/** The action a checkpoint was taken before, as the tool and its command or path. */
function precededBy(v: CheckpointEventValue, actions: ReadonlyMap<string, ActionEvent>): string {
  if (v.reason === 'restore') return `restore to event ${v.restored_to ?? '?'}`;
  const action = v.action_id ? actions.get(v.action_id) : undefined;
  if (!action) return `action ${v.action_id ?? '?'} (not in the log)`;
  return `${action.tool_name}: ${actionWhat(action)}`;
}

/** Lets go of a conversation's checkpoints (before deleting it): what others share stays. */
async function release(dir: string, io: CliIo): Promise<number> {
  const info = readSessionInfo(dir);
  if (!info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  const store = checkpointStore(info.workspace, ioSettings('checkpoints', io), io.env);
  const held = (await store.held(info.id)).length;
  await store.release(info.id);
  io.out(
    `Released the ${held} checkpoint${held === 1 ? '' : 's'} of conversation ${info.id}; files other conversations' checkpoints share stay.`,
  );
  return EXIT.ok;
}
