// `logbook checkpoints CONV_DIR`: the workspace checkpoints a conversation recorded.
import { isStartingState } from '../../../core/checkpoints/starting-state';
import { checkpointEntries } from '../../../core/checkpoints/timeline';
import { CHECKPOINT_AFTER_KEY } from '../../../core/checkpoints/types';
import { parseCommandArgs } from './args';
import { assertConversationDir, openReadOnly, readEvents } from './conversation-dir';
import { EXIT } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { checkpointStore } from './checkpoint-env';
import { ioSettings } from './cli-settings';
import { readSessionInfo, SESSION_FILE } from './session-file';
import type { ActionEvent, Event } from '../../../core/events';
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
  const { dir } = conversationDirArg('checkpoints', positionals, io);
  assertConversationDir(dir);
  if (values.release) return release(dir, io);
  const store = await openReadOnly(dir);
  let entries;
  let after: Map<string, AfterState>;
  const actions = new Map<string, ActionEvent>();
  try {
    const { events, indices } = await readEvents(store);
    entries = checkpointEntries(events, indices);
    after = afterStates(events, indices);
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
            // The first checkpoint: the files the agent started from, not files it changed.
            starting_state: isStartingState(e.value),
            // What the checkpoint precedes, in words: the tool and its command or path.
            action: action ? { tool: action.tool_name, what: actionWhat(action) } : null,
            // The files the action left, when they were recorded (its `[checkpoint] … after` line).
            after: (e.value.action_id && after.get(e.value.action_id)) || null,
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
          `${(isStartingState(v) ? 'start' : String(v.files_changed)).padStart(13)}  ${precededBy(v, actions)}${skipped}`,
      ),
    );
    const left = v.action_id ? after.get(v.action_id) : undefined;
    if (left)
      io.out(`       after it: checkpoint ${left.checkpoint.slice(0, 12)} (event ${left.index}, ${left.id})`);
  }
  if (entries.some((e) => isStartingState(e.value)))
    io.out('"start": the files as the agent found them, before its first action.');
  io.out(
    'Restore with: logbook restore CONV_DIR --at ID (an event id, a checkpoint id, a prefix of either, or #INDEX).',
  );
  return EXIT.ok;
}

/**
 * The after-action checkpoints (the files an action left), by the action: `[checkpoint]` lines
 * print their ids too, so the listing shows them under their action's checkpoint.
 */
function afterStates(events: readonly Event[], indices: readonly number[]): Map<string, AfterState> {
  const out = new Map<string, AfterState>();
  events.forEach((e, k) => {
    if (e.kind !== 'ConversationStateUpdateEvent' || e.key !== CHECKPOINT_AFTER_KEY) return;
    const v = e.value as Partial<CheckpointEventValue> | null;
    if (!v || typeof v.checkpoint !== 'string' || typeof v.action_id !== 'string') return;
    out.set(v.action_id, { index: indices[k]!, id: e.id, checkpoint: v.checkpoint });
  });
  return out;
}

interface AfterState {
  index: number;
  id: string;
  checkpoint: string;
}

/** The action a checkpoint was taken before (or, reason 'after', after), as the tool and its command or path. */
function precededBy(v: CheckpointEventValue, actions: ReadonlyMap<string, ActionEvent>): string {
  if (v.reason === 'restore') return `restore to event ${v.restored_to ?? '?'}`;
  const action = v.action_id ? actions.get(v.action_id) : undefined;
  const what = action
    ? `${action.tool_name}: ${actionWhat(action)}`
    : `action ${v.action_id ?? '?'} (not in the log)`;
  return v.reason === 'after' ? `(after) ${what}` : what;
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
