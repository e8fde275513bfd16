// `logbook fork CONV_DIR [--at ID]` on a remote conversation: the server copies it (whole, or the
// branch up to an event: POST /api/conversations/{id}/fork {from_event_id}) into a new
// conversation of its own, idle until run. Logbook records the fork as a new folder beside the
// source, with its own signed log and remote.json; the events the server copied are appended as
// received from it, as a run's are, so show and verify read the fork at once.
import { dirname, join } from 'node:path';
import { parseOwnedEvent } from '../../../core/events';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { cliHeadFile } from '../config-dir';
import { openConversationStore } from '../session/conversation-store';
import { cliSigningIdentity } from '../cli/signing';
import type { CliSettings } from '../cli/cli-settings';
import type { CliIo } from '../cli/io';
import { EXIT } from '../cli/exit-codes';
import { allEvents, call, RemoteError } from './agent-server-api';
import { chainRemoteEvent } from './remote-chain';
import type { RemoteConversation } from './remote-folder';
import { writeRemoteOrigin } from './remote-origin';

export interface ForkRequest {
  /** The server's event id the fork ends at; undefined: the whole conversation. */
  fromEventId: string | undefined;
  settings: CliSettings;
}

export async function forkRemote(io: CliIo, conv: RemoteConversation, req: ForkRequest): Promise<number> {
  const { target, origin } = conv;
  let forkId: string;
  let events: Record<string, unknown>[];
  try {
    const info = (await call(target, 'POST', `/api/conversations/${origin.conversation_id}/fork`, {
      ...(req.fromEventId ? { from_event_id: req.fromEventId } : {}),
    })) as { id?: unknown } | null;
    if (typeof info?.id !== 'string' || !/^[0-9a-f-]{8,64}$/i.test(info.id))
      throw new RemoteError('the agent-server answered the fork with no conversation id Logbook can use.');
    forkId = info.id;
    events = await allEvents(target, forkId);
  } catch (err) {
    if (err instanceof RemoteError) throw new Error(`logbook fork: ${err.message}`);
    throw err;
  }
  const dir = join(dirname(conv.dir), forkId);
  const store = await openConversationStore(dir, {
    signing: cliSigningIdentity(io, req.settings),
    conversationId: forkId,
    headFile: cliHeadFile(io.env, dir),
    lockHolder: `logbook fork (pid ${process.pid})`,
  });
  let head: string | undefined;
  let written = 0;
  try {
    writeRemoteOrigin(dir, {
      server: origin.server,
      conversation_id: forkId,
      working_dir: origin.working_dir,
    });
    const at = new Date().toISOString();
    for (const e of events) {
      if (typeof e.id !== 'string' || typeof e.kind !== 'string') continue;
      const parsed = parseOwnedEvent(chainRemoteEvent(e, head, { server: origin.server, at }));
      if (!parsed.ok) {
        io.err(`logbook fork: the server sent an event Logbook cannot read: ${parsed.error.message}`);
        io.err(`The ${written} event(s) before it are in ${dir}.`);
        return EXIT.failure;
      }
      await store.append(parsed.event as StoredConversationEvent, { durable: true });
      head = parsed.event.id;
      written++;
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
