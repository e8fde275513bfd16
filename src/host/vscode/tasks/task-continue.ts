// "Continue from here" in a worktree task's conversation: a new task, made as `logbook fork` makes
// it (worktrees/fork-task.ts): its own branch and worktree from the source task's base, holding the
// source's files at that point, and the conversation up to it, signed with the window's key. It
// opens in the chat as any task does (its worktree the only workspace folder, the task's sandbox
// and confirmations), its setup step runs as a new task's does, and the checkpoints of the points
// it copied are copied into its own store (so Restore files to here works on them). The source
// task, its branch and its worktree are left as they were.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Event } from '../../../core/events';
import { editorTasks, taskPlace } from './task-place';
import { placeOf, type TaskChat } from './task-chat';
import { recordedSettings } from './task-start';
import { runTaskSetup, setupStepsFor } from './task-setup-run';

/** What the chat's Continue from here hands over for a task's conversation. */
export interface ContinueRequest {
  /** The source task's worktree (the conversation's workspace). */
  worktree: string;
  eventId: string;
  /** The source conversation's events. */
  events: readonly Event[];
  /** Writes the source's fork up to `eventId` into an empty log folder, under the chain given. */
  fork(dir: string, chain: { conversationId: string; headFile: string }): Promise<void>;
  /** Writes a checkpoint of the source's worktree into a folder. */
  materialize(checkpoint: string, target: string): Promise<void>;
  /** The window's checkpoint store of a folder (the source's worktree, the new one's). */
  storeDirOf(worktree: string): string;
}

/** Makes the continued task and shows its conversation; resolves to the conversation's id. */
export async function continueTaskFrom(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  chat: TaskChat,
  req: ContinueRequest,
): Promise<string> {
  // A new task: the same grant as starting one (its setup and git run in the repository).
  if (!vscode.workspace.isTrusted)
    throw new Error(
      vscode.l10n.t('This workspace is not trusted, so no task starts in a worktree. Trust it first.'),
    );
  const place = await taskPlace();
  const source = place.store.list().find((t) => t.worktree === req.worktree);
  if (!source) throw new Error(vscode.l10n.t('The task of this conversation is not in this repository.'));
  // The setup step a new task runs, asked about (the repository's file) before anything is made.
  const steps = await setupStepsFor(place);
  if (!steps)
    throw new Error(vscode.l10n.t("The repository's setup step was not accepted, so no task was made."));
  const tasks = await editorTasks();
  // A task run at a terminal keeps its checkpoints where the CLI does, not with the window's.
  const cli = tasks.cliCheckpointsOf(source.worktree, process.env);
  const record = await tasks.createContinuedTask(place.store, source, {
    files: tasks.filesAt(req.events, req.eventId),
    materialize: async (checkpoint, target) => {
      try {
        await req.materialize(checkpoint, target);
      } catch (err) {
        await cli.materialize(checkpoint, target).catch(() => Promise.reject(err));
      }
    },
  });
  const id = randomUUID();
  mkdirSync(record.log, { recursive: true });
  await req.fork(record.log, { conversationId: id, headFile: chat.headFile(id) });
  // Into the window's store of the new worktree, and the CLI's (`logbook restore` at a terminal).
  const copied = tasks.checkpointsToCopy(req.events, req.eventId);
  const into = [
    req.storeDirOf(record.worktree),
    tasks.cliCheckpointsOf(record.worktree, process.env).storeDir,
  ];
  for (const storeDir of into)
    await tasks
      .copyCheckpoints(
        [req.storeDirOf(source.worktree), cli.storeDir],
        { storeDir, workspace: record.worktree },
        id,
        copied,
      )
      .then((missing) => {
        if (missing.length)
          log.warn(
            `Task ${record.name}: ${missing.length} checkpoint(s) of the points it copied are in no store.`,
          );
      })
      .catch((err: unknown) =>
        log.warn(
          `Task ${record.name}: the copied points' checkpoints were not kept in ${storeDir}: ${String(err)}`,
        ),
      );
  // What `logbook show`, `run --store` and the Tasks view read: the conversation's id and workspace.
  tasks.writeSessionInfo(
    record.log,
    tasks.newSessionInfo({ id, workspace: record.worktree, ...recordedSettings() }),
  );
  log.info(
    `Task ${record.name}: continued from task ${source.name} at event ${req.eventId}; branch ${record.branch}, worktree ${record.worktree}`,
  );
  const session = await chat.showTask(id, placeOf(record));
  chat.tasksChanged();
  // As for a new task: in the new worktree, in the sandbox, recorded in its log (a failure says so).
  const ready = await runTaskSetup(context, log, session, record.worktree, steps, true);
  if (ready)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Logbook: continued as task {0} (branch {1}), with the files as they were at that point. Task {2} is left as it was.',
        record.name,
        record.branch,
        source.name,
      ),
    );
  return id;
}
