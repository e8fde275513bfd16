// "Logbook: Replay Conversation": runs a recorded conversation again as `logbook replay` does
// (replay-run.ts: a temp copy of its first checkpoint, the recorded model replies, the tools for
// real there) and shows what it found in the chat, as a card: the first divergence, or that it
// replayed identically. Delegated agents replay with their own recorded replies; a divergence in
// one names its branch. The conversation's own log and workspace are never touched. A remote
// conversation replays as `logbook replay --workspace` does, the window's first folder its clone.
import * as vscode from 'vscode';
import { actionWhat } from '../../node/cli/event-line';
import { GitCheckpointStore } from '../../node/checkpoints/git-checkpoint-store';
import {
  replayRecorded,
  replayStart,
  type ReplayOutcome,
  type ReplayRequest,
} from '../../node/replay/replay-run';
import { readRemoteOrigin, REMOTE_ORIGIN_FILE } from '../../node/remote/remote-origin';
import { remoteReplayRequest } from '../../node/remote/remote-replay-base';
import type { Event } from '../../../core/events';
import { isCorruptRecord } from '../../../core/log/event-store';
import { LIMITS, type ReplayReport } from '../../../protocol/messages';
import { readLlmSettings, terminalPassEnvironment } from '../settings/config';
import type { ConversationService } from './conversation-service';
import { createEditorSandbox } from '../sandbox/editor-sandbox';

/**
 * The question before a replay: its tools run again without asking for each one. `baseCommit`: a
 * remote conversation's copy holds the files of the server's HEAD when it started.
 */
async function confirmReplay(calls: number, baseCommit?: string): Promise<boolean> {
  const go = vscode.l10n.t('Replay');
  const choice = await vscode.window.showWarningMessage(
    calls === 1
      ? vscode.l10n.t(
          'Replay this conversation? Its 1 recorded tool call runs again for real, in a temporary copy of the workspace, without asking.',
        )
      : vscode.l10n.t(
          'Replay this conversation? Its {0} recorded tool calls run again for real, in a temporary copy of the workspace, without asking for each one.',
          calls,
        ),
    {
      modal: true,
      detail: baseCommit
        ? vscode.l10n.t(
            "The copy holds the files of commit {0}, the agent-server's HEAD when the conversation started, taken from this folder's repository; your files, the repository and the conversation stay as they are. Commands run here with the sandbox settings of this window, not on the server. Replay only conversations whose commands you trust.",
            baseCommit.slice(0, 12),
          )
        : vscode.l10n.t(
            'The copy is the workspace as the first checkpoint holds it; your files and the conversation stay as they are. Commands run with the sandbox settings of this window. Replay only conversations whose commands you trust (an imported one ran elsewhere).',
          ),
    },
    go,
  );
  return choice === go;
}

/**
 * Replays `conversationId` and shows the outcome in the chat. Asks first unless `confirmed` (a
 * caller that asked already, such as a test); undefined when the user said no.
 */
export async function replayConversation(
  context: vscode.ExtensionContext,
  service: ConversationService,
  conversationId: string,
  confirmed = false,
): Promise<ReplayReport | undefined> {
  if (!vscode.workspace.isTrusted)
    throw new Error('A replay runs the recorded tools for real: trust this workspace first.');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('Replaying a conversation needs the workspace folder it ran in.');
  const { read, dir, from } = await replaySource(service, conversationId, folder);
  const recorded = read.map((r) => r.event);
  const calls = recorded.filter((e) => e.kind === 'ActionEvent').length;
  if (!confirmed && !(await confirmReplay(calls, from.start))) return undefined;
  if (service.activeId !== conversationId) await service.setActive(conversationId);
  service.showReplay(conversationId);
  const sandbox = createEditorSandbox(context).sandbox;
  let report: ReplayReport;
  try {
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Logbook: replaying the conversation…'),
      },
      async () =>
        replayRecorded({
          recorded,
          recordedDir: dir,
          ...from,
          // Conversations recorded before the log said so ran in the editor's terminal.
          shellOfOlderLogs: 'user',
          session: {
            llmSettings: await readLlmSettings(context.secrets),
            confirmationMode: 'never',
            passEnvironment: terminalPassEnvironment(),
            sandbox,
          },
        }),
    );
    report = replayReport(outcome, (index) => read[index]?.seq);
  } catch (err) {
    report = {
      outcome: 'failed',
      message: (err instanceof Error ? err.message : String(err)).slice(0, LIMITS.title),
    };
  }
  service.showReplay(conversationId, report);
  return report;
}

/**
 * The recorded events, the log's folder, and where the copy starts: a local conversation from its
 * first checkpoint in the workspace, a remote one from its base commit in `folder`'s repository
 * (remote-replay-base.ts, as the CLI). Refusals are errors in words, before anything shows.
 */
async function replaySource(
  service: ConversationService,
  conversationId: string,
  folder: string,
): Promise<{
  read: { seq: number; event: Event }[];
  dir: string;
  from: Pick<ReplayRequest, 'recordedWorkspace' | 'start' | 'crossAgent' | 'materialize'>;
}> {
  const remote = await service.remote.of(conversationId);
  if (remote) {
    // The remote conversation's local log, the events received from its server.
    const read = (await remote.eventsAfter(-1))
      .filter((r) => !isCorruptRecord(r.event))
      .map((r) => ({ seq: r.seq, event: r.event as unknown as Event }));
    const origin = readRemoteOrigin(remote.dir);
    if (!origin) throw new Error(`${remote.dir}/${REMOTE_ORIGIN_FILE} cannot be read.`);
    return { read, dir: remote.dir, from: await remoteReplayRequest(remote.dir, origin, folder) };
  }
  const session = await service.session(conversationId);
  const read = await session.readableEvents(0);
  const store = service.checkpointStore();
  // A conversation without checkpoints cannot be replayed (said in words).
  replayStart(
    read.map((r) => r.event),
    session.dir,
  );
  if (!(store instanceof GitCheckpointStore))
    throw new Error('This window has several folders; replay the conversation in a window of its folder.');
  return {
    read,
    dir: session.dir,
    from: {
      recordedWorkspace: folder,
      materialize: (checkpoint, target) => store.materialize(checkpoint, target),
    },
  };
}

/** The outcome as the chat's card shows it, cut to the protocol's bounds. */
export function replayReport(o: ReplayOutcome, seqOf: (index: number) => number | undefined): ReplayReport {
  if (o.kind === 'same') return { outcome: 'same', actions: o.actions };
  if (o.kind === 'error-end')
    return { outcome: 'error-end', actions: o.actions, recordedEnd: o.recordedEnd.slice(0, LIMITS.status) };
  const d = o.divergence;
  const what = d.action && d.action.kind === 'ActionEvent' ? actionWhat(d.action) : d.tool;
  // Inside a delegated agent the index is in the child's log, not a place in this timeline.
  const place = o.branch
    ? { branch: o.branch.slice(0, LIMITS.kind) }
    : {
        ...(seqOf(d.index) !== undefined ? { seq: seqOf(d.index)! } : {}),
        ...(d.action && d.action.id.length <= LIMITS.id ? { eventId: d.action.id } : {}),
      };
  return {
    outcome: 'diverged',
    actions: o.actions,
    index: d.index,
    ...place,
    ordinal: d.ordinal,
    tool: d.tool.slice(0, LIMITS.kind),
    what: what.slice(0, LIMITS.title),
    recorded: d.recorded.slice(0, LIMITS.replayText),
    ...(d.replayed !== undefined ? { replayed: d.replayed.slice(0, LIMITS.replayText) } : {}),
    diff: d.diff.slice(0, LIMITS.replayDiffLines).map((l) => l.slice(0, LIMITS.title)),
    status: o.status.slice(0, LIMITS.status),
  };
}
