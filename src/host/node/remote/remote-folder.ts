// A remote conversation's folder as the commands that reach its server (diff, apply, fork) need
// it: where it runs (remote.json), the session key from the environment, and the check that the
// signed log received its events from that server before the key is sent there.
import { isCorruptRecord } from '../../../core/log';
import { openReadOnly } from '../cli/conversation-dir';
import { UsageError } from '../cli/exit-codes';
import type { CliIo } from '../cli/io';
import type { AgentServerTarget } from './agent-server-api';
import { assertFromServer, readRemoteOrigin, REMOTE_KEY_VARIABLE, type RemoteOrigin } from './remote-origin';

export interface RemoteConversation {
  dir: string;
  origin: RemoteOrigin;
  target: AgentServerTarget;
  /** The readable events of the local log, oldest first. */
  events: Record<string, unknown>[];
}

/** The folder's remote origin, or undefined when it holds a local conversation. */
export { readRemoteOrigin };

export async function openRemoteConversation(
  io: CliIo,
  command: string,
  dir: string,
  origin: RemoteOrigin,
): Promise<RemoteConversation> {
  const key = io.env[REMOTE_KEY_VARIABLE];
  if (!key)
    throw new UsageError(
      `logbook ${command}: the conversation runs on ${origin.server}; set ${REMOTE_KEY_VARIABLE} to its session API key.`,
    );
  const log = await openReadOnly(dir);
  let events: Record<string, unknown>[];
  try {
    events = (await log.slice()).filter((e) => !isCorruptRecord(e)) as unknown as Record<string, unknown>[];
  } finally {
    await log.close();
  }
  assertFromServer({ dir, origin }, events);
  return { dir, origin, target: { url: origin.server, key }, events };
}
