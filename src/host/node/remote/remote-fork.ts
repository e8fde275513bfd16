// `logbook fork CONV_DIR [--at ID]` on a remote conversation: the server copies it (whole, or the
// branch up to an event: POST /api/conversations/{id}/fork {from_event_id}) into a new
// conversation of its own, idle until run. Logbook records the fork as a new folder beside the
// source, with its own signed log and remote.json; the events the server copied are appended as
// received from it, as a run's are, so show and verify read the fork at once.
import { dirname, join } from 'node:path';
import { cliHeadFile } from '../config-dir';
import { openConversationStore } from '../session/conversation-store';
import { cliSigningIdentity } from '../cli/signing';
import type { CliSettings } from '../cli/cli-settings';
import type { CliIo } from '../cli/io';
import { EXIT } from '../cli/exit-codes';
import { RemoteError } from './agent-server-api';
import { forkOnServer, recordFork, type ServerFork } from './remote-fork-record';
import type { RemoteConversation } from './remote-folder';
import { writeRemoteOrigin } from './remote-origin';

export interface ForkRequest {
  /** The server's event id the fork ends at; undefined: the whole conversation. */
  fromEventId: string | undefined;
  settings: CliSettings;
}

export async function forkRemote(io: CliIo, conv: RemoteConversation, req: ForkRequest): Promise<number> {
  const { target, origin } = conv;
  let fork: ServerFork;
  try {
    fork = await forkOnServer(target, origin, req.fromEventId);
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook fork: ${err.message}`);
    throw err;
  }
  const { forkId } = fork;
  const dir = join(dirname(conv.dir), forkId);
  const store = await openConversationStore(dir, {
    signing: cliSigningIdentity(io, req.settings),
    conversationId: forkId,
    headFile: cliHeadFile(io.env, dir),
    lockHolder: `logbook fork (pid ${process.pid})`,
  });
  let written: number;
  try {
    writeRemoteOrigin(dir, {
      server: origin.server,
      conversation_id: forkId,
      working_dir: origin.working_dir,
      // The same working folder: the fork's change is taken against the same start.
      ...(origin.base_commit ? { base_commit: origin.base_commit } : {}),
    });
    const r = await recordFork(store, origin.server, fork.events);
    written = r.written;
    if (r.unreadable !== undefined) {
      io.err(`logbook fork: the server sent an event Logbook cannot read: ${r.unreadable}`);
      io.err(`The ${written} event(s) before it are in ${dir}.`);
      return EXIT.failure;
    }
  } finally {
    await store.close();
  }
  const from = req.fromEventId ? `up to event ${req.fromEventId}` : 'whole';
  io.err(`forked on ${origin.server}: conversation ${forkId} (${from}), idle there.`);
  io.out(dir);
  io.err(`${written} event(s) copied by the server are in ${dir}.`);
  io.err(`Run it on with: logbook run --remote ${origin.server} --store ${dir}`);
  return EXIT.ok;
}
