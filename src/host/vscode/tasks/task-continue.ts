// "Continue from here" in a worktree task's conversation: a new task, made as `logbook fork` makes
// it (worktrees/fork-task.ts): its own branch and worktree from the source task's base, holding the
// source's files at that point, and the conversation up to it, signed with the window's key. It
// opens in the chat as any task does (its worktree the only workspace folder, the task's sandbox
// and confirmations); the source task, its branch and its worktree are left as they were.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Event } from '../../../core/events';
import { editorTasks, taskPlace } from './task-place';
import { placeOf, type TaskChat } from './task-chat';
import { recordedSettings } from './task-start';

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
}

/** Makes the continued task and shows its conversation; resolves to the conversation's id. */
export async function continueTaskFrom(
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
  const tasks = await editorTasks();
  const record = await tasks.createContinuedTask(place.store, source, {
    files: tasks.filesAt(req.events, req.eventId),
    materialize: async (checkpoint, target) => {
      try {
        await req.materialize(checkpoint, target);
      } catch (err) {
        // A task run at a terminal keeps its checkpoints where the CLI does, not with the window's.
        await tasks
          .cliCheckpointsOf(source.worktree, process.env)
          .materialize(checkpoint, target)
          .catch(() => Promise.reject(err));
      }
    },
  });
  const id = randomUUID();
  mkdirSync(record.log, { recursive: true });
  await req.fork(record.log, { conversationId: id, headFile: chat.headFile(id) });
  // What `logbook show`, `run --store` and the Tasks view read: the conversation's id and workspace.
  tasks.writeSessionInfo(
    record.log,
    tasks.newSessionInfo({ id, workspace: record.worktree, ...recordedSettings() }),
  );
  log.info(
    `Task ${record.name}: continued from task ${source.name} at event ${req.eventId}; branch ${record.branch}, worktree ${record.worktree}`,
  );
  await chat.showTask(id, placeOf(record));
  chat.tasksChanged();
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
