// `logbook replay CONV_DIR`: runs a recorded conversation again, as a regression test for the agent
// (replay/replay-run.ts), and prints the first divergence or that there was none.
import type { ConfirmationMode } from '../../../core/agent/settings';
import type { Divergence } from '../../../core/agent/replay-divergence';
import type { Event } from '../../../core/events';
import { llmSettingsFrom } from '../../../core/settings';
import { printableLine } from '../../../core/text/printable';
import { replayRecorded, replayStart } from '../replay/replay-run';
import { nonEmpty, parseCommandArgs } from './args';
import { checkpointStore } from './checkpoint-env';
import { cliSettings } from './cli-settings';
import { assertConversationDir, openReadOnly, readEvents, resolvePath } from './conversation-dir';
import { actionWhat } from './event-line';
import { indexNote, resolveRef } from './event-ref';
import { EXIT, UsageError } from './exit-codes';
import { COMMAND_HELP } from './help';
import type { CliIo } from './io';
import { conversationDirArg } from './newest-conversation';
import { cliSandbox, SANDBOX_OPTION } from './sandbox-option';
import { readSessionInfo, SESSION_FILE } from './session-file';
import { readRemoteOrigin } from '../remote/remote-origin';
import { remoteReplayRequest } from '../remote/remote-replay-base';

/** `replay`'s exit codes: 0 the same results, 1 a failure (no checkpoint, bad usage), 4 a divergence. */
export const REPLAY_EXIT = { same: 0, failure: 1, diverged: 4 } as const;

export async function replayCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('replay', argv, {
    'confirmation-mode': { type: 'string' },
    confirm: { type: 'string' },
    keep: { type: 'boolean' },
    to: { type: 'string' },
    workspace: { type: 'string' },
    ...SANDBOX_OPTION,
  });
  if (values.help) {
    io.out(COMMAND_HELP.replay);
    return EXIT.ok;
  }
  const { dir, dirArg } = conversationDirArg('replay', positionals, io);
  const to = nonEmpty('replay', 'to', values.to);
  assertConversationDir(dir);
  const remote = readRemoteOrigin(dir);
  const workspaceArg = nonEmpty('replay', 'workspace', values.workspace);
  if (!remote && workspaceArg !== undefined)
    throw new UsageError(
      'logbook replay: --workspace is for a remote conversation (the clone that has its base commit); ' +
        "a local one replays on its own checkpoint's files.",
    );
  // A remote conversation starts from its base commit in the local clone, a local one from its
  // first checkpoint in the workspace it ran in.
  const base = remote
    ? await remoteReplayRequest(dir, remote, resolvePath(io, workspaceArg ?? '.'))
    : undefined;
  const info = remote ? undefined : readSessionInfo(dir);
  if (!remote && !info)
    throw new Error(`${dir} has no ${SESSION_FILE}: the CLI does not know which workspace it ran in.`);
  // The throwaway copy runs every action unless told otherwise.
  const { confirm, to: _to, ...flags } = values;
  const settings = cliSettings('replay', io.env, {
    flags: { ...flags, 'confirmation-mode': values['confirmation-mode'] ?? confirm ?? 'never' },
    warn: (line) => io.err(line),
  });
  const log = await openReadOnly(dir);
  let recorded: Event[];
  let stopAfter: number | undefined;
  try {
    const read = await readEvents(log);
    recorded = read.events;
    if (to !== undefined) {
      // The same reading of a point as show --at, diff and restore.
      const found = resolveRef(recorded, to, dirArg, { indices: read.indices, length: log.length });
      const note = indexNote(to, found);
      if (note) io.err(note);
      stopAfter = read.indices.indexOf(found.index);
      io.out(`replaying up to event #${found.index} (${found.eventId})`);
    }
  } finally {
    await log.close();
  }
  if (!base) replayStart(recorded, dir);
  let root: string | undefined;
  try {
    const outcome = await replayRecorded({
      recorded,
      recordedDir: dir,
      ...(base ?? {
        recordedWorkspace: info!.workspace,
        materialize: (checkpoint, target) =>
          checkpointStore(info!.workspace, settings, io.env).materialize(checkpoint, target),
      }),
      session: {
        llmSettings: llmSettingsFrom(settings.resolved),
        confirmationMode: settings.get<ConfirmationMode>('confirmation.mode'),
        maxIterations: settings.get('maxIterations'),
        maxToolCallsPerReply: settings.get('maxToolCallsPerReply'),
        passEnvironment: settings.get('terminal.passEnvironment'),
        sandbox: cliSandbox(settings, io.env),
      },
      onStart: (at, checkpoint) => {
        root = at;
        io.out(
          base
            ? `replaying in ${at} (the files of commit ${checkpoint.slice(0, 12)}, the server's HEAD at the start)`
            : `replaying in ${at} (the workspace as checkpoint ${checkpoint.slice(0, 12)} holds it)`,
        );
      },
      approve: async () => {
        const answer = io.ask ? await io.ask('Run the actions the replay waits on? [y/N] ') : undefined;
        return !!answer && /^y(es)?$/i.test(answer.trim());
      },
      keep: values.keep === true,
      env: io.env,
      ...(stopAfter !== undefined ? { stopAfter } : {}),
    });
    if (outcome.kind === 'diverged') {
      for (const line of divergenceLines(outcome.divergence, outcome.actions, outcome.status, outcome.branch))
        io.out(printableLine(line));
      return REPLAY_EXIT.diverged;
    }
    if (outcome.kind === 'error-end') {
      io.out(
        `divergence at the end: the replay stopped on an error, the recording did not (${outcome.recordedEnd}).`,
      );
      return REPLAY_EXIT.diverged;
    }
    io.out(`replayed ${outcome.actions} action${outcome.actions === 1 ? '' : 's'}, no divergence`);
    return REPLAY_EXIT.same;
  } finally {
    if (values.keep && root) io.out(`kept ${root}`);
  }
}

function divergenceLines(d: Divergence, total: number, status: string, branch?: string): string[] {
  const what = d.action && d.action.kind === 'ActionEvent' ? actionWhat(d.action) : d.tool;
  // Inside a delegated agent: its branch, and the index in its own log.
  const where = branch ? `in ${branch} ` : '';
  const lines = [
    `divergence ${where}at event ${d.index} (action ${d.ordinal} of ${total}): ${d.tool}: ${what}`,
    `  recorded: ${oneLine(d.recorded)}`,
  ];
  if (d.replayed === undefined) lines.push(`  replayed: no result (the replay stopped ${status} before it)`);
  else {
    lines.push(`  replayed: ${oneLine(d.replayed)}`);
    lines.push('  diff (- recorded, + replayed):', ...d.diff.map((l) => `    ${l}`));
  }
  return lines;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
