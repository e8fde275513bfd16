// `logbook fork [CONV_DIR] [--at ID]`: a new conversation that starts as a copy of this one (up to
// ID). A conversation that ran on an agent-server is forked by the server (remote-fork.ts); a
// worktree task's becomes a new task, in a worktree of its own (task-fork.ts); any other local
// conversation has no fork yet, and says so.
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
import { forkTask, taskOfLog } from './task-fork';

export async function forkCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('fork', argv, {
    at: { type: 'string' },
    'runtime-api': { type: 'string' },
    name: { type: 'string' },
  });
  if (values.help) {
    io.out(COMMAND_HELP.fork);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('fork', positionals, io);
  const at = nonEmpty('fork', 'at', values.at);
  const name = nonEmpty('fork', 'name', values.name);
  const origin = readRemoteOrigin(dir);
  const task = origin ? undefined : taskOfLog(io, dir);
  if (task) return forkTask(io, task, at, name);
  if (name !== undefined)
    throw new UsageError(
      `logbook fork: --name names a new task; ${dirArg} is no worktree task's conversation.`,
    );
  if (!origin)
    throw new UsageError(
      `logbook fork: ${dirArg} is not a conversation that ran on an agent-server (no remote.json) nor a ` +
        "worktree task's; only those can be forked (a server makes the copy; a task's continues as a new task).",
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
