// A remote conversation's folder as the commands that reach its server (diff, apply, fork) need
// it: where it runs (remote.json), the session key (remote-target.ts), and the check that the
// signed log received its events from that server before the key is sent there.
import { isCorruptRecord } from '../../../core/log';
import { openReadOnly } from '../cli/conversation-dir';
import type { CliIo } from '../cli/io';
import type { AgentServerTarget } from './agent-server-api';
import { assertFromServer, readRemoteOrigin, type RemoteOrigin } from './remote-origin';
import { remoteTargetOf } from './remote-target';

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
  /** `--runtime-api URL`: the server and its key asked of the runtime API that started it. */
  runtimeApi?: string,
): Promise<RemoteConversation> {
  const findTarget = remoteTargetOf(io, command, origin, runtimeApi);
  const log = await openReadOnly(dir);
  let events: Record<string, unknown>[];
  try {
    events = (await log.slice()).filter((e) => !isCorruptRecord(e)) as unknown as Record<string, unknown>[];
  } finally {
    await log.close();
  }
  assertFromServer({ dir, origin }, events);
  return { dir, origin, target: await findTarget(), events };
}
