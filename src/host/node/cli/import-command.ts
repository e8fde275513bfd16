// `logbook import-openhands`: an OpenHands SDK conversation directory into a new segment log.
// Events are copied record for record (unknown kinds too, as opaque events), and base_state.json
// is kept verbatim next to the log so an export gives it back. Snapshots are written as the events
// are copied, so the first `show` or VS Code open of a long import reads only the newest one's tail.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { conversationEventCodec, type StoredConversationEvent } from '../../../core/agent/event-codec';
import { followWithSnapshots } from '../../../core/agent/snapshot-follower';
import { copyEvents, detectBackend, OpenHandsDirStore, SegmentEventStore } from '../../../core/log';
import { expectPositionals, parseCommandArgs } from './args';
import {
  assertFreshDir,
  conversationId,
  IMPORTED_BASE_STATE,
  isDirectory,
  resolvePath,
} from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';

export async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('import-openhands', argv, { store: { type: 'string' } });
  if (values.help) {
    io.out(COMMAND_HELP['import-openhands']);
    return EXIT.ok;
  }
  const [dirArg] = expectPositionals('import-openhands', positionals, ['DIR']);
  if (!values.store) throw new UsageError('logbook import-openhands: --store STORE is required.');
  const from = resolvePath(io, dirArg!);
  const to = resolvePath(io, values.store);
  if (!isDirectory(from) || detectBackend(from) !== 'openhands') {
    throw new Error(`${from} is not an OpenHands conversation (no base_state.json or events/ folder).`);
  }
  assertFreshDir(to, 'The store');

  const source = await OpenHandsDirStore.open<StoredConversationEvent>(from, {
    codec: conversationEventCodec,
    readOnly: true,
  });
  const created = !existsSync(to);
  mkdirSync(to, { recursive: true });
  let count: number;
  try {
    const target = await SegmentEventStore.open<StoredConversationEvent>(to, {
      codec: conversationEventCodec,
    });
    try {
      const snapshots = followWithSnapshots(target, conversationId(from));
      count = await copyEvents(source, target);
      await snapshots.finish();
    } finally {
      await target.close();
    }
    if (existsSync(join(from, 'base_state.json'))) {
      copyFileSync(join(from, 'base_state.json'), join(to, IMPORTED_BASE_STATE));
    }
  } catch (err) {
    // Half an import is worse than none: the user fixes the source and runs it again.
    if (created) rmSync(to, { recursive: true, force: true });
    throw err;
  } finally {
    await source.close();
  }
  io.out(`Imported ${count} event${count === 1 ? '' : 's'} into ${to}`);
  return EXIT.ok;
}
