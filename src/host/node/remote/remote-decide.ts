// Going on with a remote conversation from its folder, in a new process: `logbook approve` /
// `logbook reject --reason` answer on the agent-server (respond_to_confirmation), and
// `logbook run --remote URL --store DIR` resumes a paused one (/run), or with a task sends it as the
// next user message (`POST …/events`). Either way the run streams on
// into the local log from the last event it holds until the next stop, nothing written twice.
import type { AgentMode } from '../../../core/agent/plan-mode';
import { isCorruptRecord } from '../../../core/log';
import { cliHeadFile } from '../config-dir';
import { openConversationStore } from '../session/conversation-store';
import { cliSigningIdentity } from '../cli/signing';
import type { CliSettings } from '../cli/cli-settings';
import type { CliIo } from '../cli/io';
import {
  type AgentServerTarget,
  RemoteError,
  conversationStatus,
  respondToConfirmation,
  runConversation,
  sendUserMessage,
  setConfirmationPolicy,
} from './agent-server-api';
import { assertFromServer, REMOTE_KEY_VARIABLE, type RemoteOrigin, writeRemoteOrigin } from './remote-origin';
import { remoteConfirmation, remoteGate } from './remote-gate';
import { remoteTargetOf } from './remote-target';
import { streamRemote } from './remote-run';
import { heldActions, lastStatus } from './remote-status';

export { REMOTE_KEY_VARIABLE, assertFromServer };

export interface RemoteFolder {
  dir: string;
  origin: RemoteOrigin;
  settings: CliSettings;
  askInPlace: boolean;
  json: boolean;
  /** `--mode`: plan or act from now on (default: the mode remote.json records). */
  mode?: AgentMode;
  /** The server's key when a runtime API gave it (else remote-target.ts finds it). */
  target?: AgentServerTarget;
  /** `--runtime-api URL` of approve and reject: the runtime API asked for the server's key. */
  runtimeApi?: string;
}

/** What is sent before streaming on; `known` is what the log holds. */
type Step = (target: AgentServerTarget, id: string, known: Record<string, unknown>[]) => Promise<string>;

async function goOn(
  io: CliIo,
  command: string,
  f: RemoteFolder,
  step: Step,
  send?: (target: AgentServerTarget, id: string) => Promise<void>,
): Promise<number> {
  const given = f.target;
  const findTarget = given
    ? () => Promise.resolve(given)
    : remoteTargetOf(io, command, f.origin, f.runtimeApi);
  const id = f.origin.conversation_id;
  const store = await openConversationStore(f.dir, {
    signing: cliSigningIdentity(io, f.settings),
    conversationId: id,
    headFile: cliHeadFile(io.env, f.dir),
    lockHolder: `logbook ${command} (pid ${process.pid})`,
  });
  try {
    const known = (await store.slice()).filter((e) => !isCorruptRecord(e)) as unknown as Record<
      string,
      unknown
    >[];
    assertFromServer(f, known);
    // Only once the log vouches for the server (the runtime API's answer is checked against it too).
    const target = { url: f.origin.server, key: (await findTarget()).key };
    const gate = remoteGate(f.settings, f.mode ?? f.origin.mode ?? 'act', f.origin.working_dir);
    let done: string;
    try {
      await holdFor(gate.mode, f, target, id);
      done = await step(target, id, known);
    } catch (err) {
      // One line, prefixed once with the command (cli/main.ts).
      if (!(err instanceof RemoteError)) throw err;
      if (err.status !== undefined || !/cannot be reached/.test(err.message)) throw new Error(err.message);
      // The server is away: say what became of the log, which nothing here changed.
      throw new Error(
        `${err.message} Nothing was sent; the ${known.length} event(s) received are in ${f.dir}, unchanged ` +
          `(last known: ${lastStatus(known) ?? 'unknown'}). Run it again once the server answers.`,
      );
    }
    io.err(`${done} on ${target.url} (conversation ${id}); streaming on`);
    const opts = {
      target,
      remoteDir: f.origin.working_dir,
      askInPlace: f.askInPlace,
      json: f.json,
      gate,
      ...(send ? { send: () => send(target, id) } : {}),
    };
    return await streamRemote(io, opts, id, store, known);
  } finally {
    await store.close();
  }
}

/**
 * Plan mode makes the server hold every action before anything runs on; leaving it gives the
 * server the user's own policy back. The mode is recorded beside the log for the next command.
 */
async function holdFor(
  mode: AgentMode,
  f: RemoteFolder,
  target: AgentServerTarget,
  id: string,
): Promise<void> {
  const was = f.origin.mode ?? 'act';
  if (mode !== 'plan' && was !== 'plan') return;
  await setConfirmationPolicy(target, id, mode === 'plan' ? 'always' : remoteConfirmation(f.settings));
  if (mode !== was) {
    const { mode: _old, ...rest } = f.origin;
    writeRemoteOrigin(f.dir, mode === 'plan' ? { ...rest, mode } : rest);
  }
}

export function decideRemote(
  io: CliIo,
  command: string,
  f: RemoteFolder & { accept: boolean; reason?: string },
): Promise<number> {
  return goOn(io, command, f, async (target, id, known) => {
    if (heldActions(known).length === 0) {
      throw new Error(`Nothing to ${command}: the log of ${f.dir} holds no action waiting for an answer.`);
    }
    await respondToConfirmation(target, id, { accept: f.accept, ...(f.reason ? { reason: f.reason } : {}) });
    // The rejected action's reason goes to the model, and the agent goes on, as in a local run.
    if (!f.accept) await runConversation(target, id);
    return f.accept ? 'approved' : 'rejected';
  });
}

/** `run --remote URL --store DIR`: the paused (or stopped) conversation runs on. */
export function resumeRemote(io: CliIo, f: RemoteFolder): Promise<number> {
  return goOn(io, 'run --remote', f, async (target, id) => {
    await runConversation(target, id);
    return 'resumed';
  });
}

/** What the server must not be doing when a new task is sent, and what to do instead. */
const BUSY: Record<string, string> = {
  running: 'it is running there; wait for it to stop, or pause it (Ctrl+C in its run), then send the task',
  waiting_for_confirmation:
    'it waits there for an answer to a held action; answer it first (logbook approve, or logbook reject --reason)',
  deleting: 'it is being deleted there',
};

/**
 * `run --remote URL --store DIR "task"`: the conversation, stopped on the server, gets the task as
 * its next user message and runs on it, streamed into the same log after the last event it holds.
 */
export function sendTaskRemote(io: CliIo, f: RemoteFolder & { task: string }): Promise<number> {
  return goOn(
    io,
    'run --remote',
    f,
    async (target, id) => {
      const status = await conversationStatus(target, id);
      const busy = BUSY[status];
      if (busy)
        throw new Error(`logbook run --remote: the conversation in ${f.dir} takes no new task now: ${busy}.`);
      return `sending the task (the conversation was ${status})`;
    },
    // Sent once the stream is open, so that the statuses of the run it starts are all received.
    (target, id) => sendUserMessage(target, id, f.task),
  );
}
