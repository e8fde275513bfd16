// `logbook approve` / `logbook reject --reason` on a remote conversation's folder: the answer goes
// to the agent-server (respond_to_confirmation), and the run streams on into the local log from
// the last event it holds until the next stop, as `approve` does for a local conversation.
import { isCorruptRecord } from '../../../core/log';
import { cliHeadFile } from '../config-dir';
import { openConversationStore } from '../session/conversation-store';
import { cliSigningIdentity } from '../cli/signing';
import type { CliSettings } from '../cli/cli-settings';
import type { CliIo } from '../cli/io';
import { UsageError } from '../cli/exit-codes';
import { RemoteError, respondToConfirmation, runConversation } from './agent-server-api';
import { REMOTE_KEY_VARIABLE } from './remote-command';
import type { RemoteOrigin } from './remote-risk';
import { streamRemote } from './remote-run';
import { heldActions } from './remote-status';

export interface RemoteDecision {
  dir: string;
  origin: RemoteOrigin;
  accept: boolean;
  reason?: string;
  settings: CliSettings;
  askInPlace: boolean;
  json: boolean;
}

export async function decideRemote(io: CliIo, command: string, d: RemoteDecision): Promise<number> {
  const key = io.env[REMOTE_KEY_VARIABLE];
  if (!key) {
    throw new UsageError(
      `logbook ${command}: the conversation runs on ${d.origin.server}; set ${REMOTE_KEY_VARIABLE} to its session API key.`,
    );
  }
  const target = { url: d.origin.server, key };
  const id = d.origin.conversation_id;
  const store = await openConversationStore(d.dir, {
    signing: cliSigningIdentity(io, d.settings),
    conversationId: id,
    headFile: cliHeadFile(io.env, d.dir),
    lockHolder: `logbook ${command} (pid ${process.pid})`,
  });
  try {
    const known = (await store.slice()).filter((e) => !isCorruptRecord(e)) as unknown as Record<
      string,
      unknown
    >[];
    if (heldActions(known).length === 0) {
      throw new Error(`Nothing to ${command}: the log of ${d.dir} holds no action waiting for an answer.`);
    }
    try {
      await respondToConfirmation(target, id, {
        accept: d.accept,
        ...(d.reason ? { reason: d.reason } : {}),
      });
      // The rejected action's reason goes to the model, and the agent goes on, as in a local run.
      if (!d.accept) await runConversation(target, id);
    } catch (err) {
      if (err instanceof RemoteError) throw new Error(`logbook ${command}: ${err.message}`);
      throw err;
    }
    io.err(`${d.accept ? 'approved' : 'rejected'} on ${target.url} (conversation ${id}); streaming on`);
    return await streamRemote(
      io,
      { target, remoteDir: d.origin.working_dir, askInPlace: d.askInPlace, json: d.json },
      id,
      store,
      known,
    );
  } finally {
    await store.close();
  }
}
