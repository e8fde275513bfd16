// `logbook fork [CONV_DIR] [--at ID]`: a new conversation that starts as a copy of this one (up to
// ID). Only a conversation that ran on an agent-server can be forked: the server makes the copy
// (remote-fork.ts); a local conversation has no fork yet, and says so.
import { nonEmpty, parseCommandArgs } from './args';
import { ioSettings } from './cli-settings';
import { openReadOnly } from './conversation-dir';
import { EXIT, UsageError } from './exit-codes';
import { findEvent } from './find-event';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { openRemoteConversation } from '../remote/remote-folder';
import { forkRemote } from '../remote/remote-fork';
import { readRemoteOrigin } from '../remote/remote-origin';

export async function forkCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('fork', argv, {
    at: { type: 'string' },
    'runtime-api': { type: 'string' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.fork);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('fork', positionals, io);
  const at = nonEmpty('fork', 'at', values.at);
  const origin = readRemoteOrigin(dir);
  if (!origin)
    throw new UsageError(
      `logbook fork: ${dirArg} is not a conversation that ran on an agent-server (no remote.json); ` +
        'only a remote conversation can be forked (its server makes the copy).',
    );
  const conv = await openRemoteConversation(io, 'fork', dir, origin, values['runtime-api']);
  let fromEventId: string | undefined;
  if (at !== undefined && at !== 'now') {
    const log = await openReadOnly(dir);
    try {
      fromEventId = (await findEvent(log, at, dirArg)).eventId;
    } finally {
      await log.close();
    }
  }
  return forkRemote(io, conv, { fromEventId, settings: ioSettings('fork', io) });
}
