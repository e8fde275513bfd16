// `logbook repair CONV_DIR --accept-lost-events`: the explicit choice to go on without events the
// log lost (a deleted segment file...). Without the flag it only says what is lost. With it, the
// loss is recorded in lost.json and as a `lost_events` event in the conversation, and `run --store`,
// `approve` and `reject` work on the conversation again, after the events that are left.
import { randomUUID } from 'node:crypto';
import { conversationEventCodec, type StoredConversationEvent } from '../../../core/agent/event-codec';
import type { Event } from '../../../core/events';
import { describeLostEvents, detectBackend, SegmentEventStore } from '../../../core/log';
import { stateFromStore } from '../../../core/state';
import { lostEventsNotice } from '../../../core/state/lost-events-notice';
import { expectPositionals, parseCommandArgs } from './args';
import { assertConversationDir, conversationId, openReadOnly, resolvePath } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { repairHint } from './repair-hint';

export async function repairCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('repair', argv, {
    'accept-lost-events': { type: 'boolean' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.repair);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('repair', positionals, ['CONV_DIR']);
  const dir = resolvePath(io, dirArg!);
  assertConversationDir(dir);
  if (detectBackend(dir) === 'openhands') {
    throw new UsageError(`logbook repair: ${dir} is an OpenHands conversation; import it first.`);
  }
  const probe = await openReadOnly(dir);
  const found = probe.lostOnOpen ?? null;
  await probe.close();
  if (!found) {
    io.out(`Nothing is lost in ${dir}: nothing to repair.`);
    return EXIT.ok;
  }
  io.out(`Lost: ${describeLostEvents(found)}.`);
  if (!values['accept-lost-events']) {
    io.err(`Nothing was changed. ${repairHint(dir)}`);
    return EXIT.failure;
  }

  const store = await SegmentEventStore.open<StoredConversationEvent>(dir, {
    codec: conversationEventCodec,
    acceptLostEvents: true,
  });
  try {
    if (store.readOnly) {
      throw new Error(
        `The conversation in ${dir} is in use: ${store.lockHeldBy ?? 'another process holds its lock'}.`,
      );
    }
    const accepted = store.lostOnOpen;
    if (accepted) {
      const { state } = await stateFromStore(store, { id: conversationId(dir) });
      const ctx = {
        newId: randomUUID,
        timestamp: new Date().toISOString(),
        ...(state.head ? { parentId: state.head } : {}),
      };
      for (const e of lostEventsNotice(accepted, ctx)) {
        await store.append(e as Event as StoredConversationEvent, { durable: true });
      }
    }
  } finally {
    await store.close();
  }
  io.out(
    `Recorded the loss (lost.json and the conversation's log). The conversation continues without ` +
      `those events: logbook run --store ${dir} --workspace DIR --task "..."`,
  );
  return EXIT.ok;
}
