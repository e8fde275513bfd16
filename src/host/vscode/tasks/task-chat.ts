// What the Tasks view asks of the chat: to show a worktree task's conversation (opened on the
// task's log, with its worktree as the workspace), and to close one this window holds before
// apply or discard (its log's writer lock would read as a running task).
import * as vscode from 'vscode';
import type { SigningIdentity } from '../../../core/signing';
import type { TaskRecord } from '../../../core/worktrees';
import type { ConversationSession } from '../conversations/conversation-session';
import type { TaskConversationPlace } from '../conversations/task-conversation-place';
import { editorTasks } from './task-place';

export interface TaskChat {
  showTask(id: string, place: TaskConversationPlace): Promise<ConversationSession>;
  /** False while a step of it runs here. */
  letGoOfTask(dir: string): Promise<boolean>;
  /** The task's session this window writes, if any: Pause and Stop act on it as the chat's do. */
  heldTask(dir: string): { id: string; running: boolean } | undefined;
  /** A task changed (its record, its log): its conversation's row in the Conversations view may too. */
  tasksChanged(): void;
  /** The window's key, signing what it appends to a task's log (its decisions on the task). */
  readonly signingKey: { identity(): Promise<SigningIdentity> };
  /** Where the window keeps a conversation's signed head. */
  headFile(conversationId: string): string;
}

export function placeOf(record: TaskRecord): TaskConversationPlace {
  return { name: record.name, branch: record.branch, worktree: record.worktree, dir: record.log };
}

/** Shows a task's conversation in the chat; undefined when it has none yet (its start failed early). */
export async function openTaskConversation(chat: TaskChat, record: TaskRecord): Promise<string | undefined> {
  const info = (await editorTasks()).readSessionInfo(record.log);
  if (!info) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Logbook: task {0} has no conversation yet.', record.name),
    );
    return undefined;
  }
  await chat.showTask(info.id, placeOf(record));
  await vscode.commands.executeCommand('logbook.chat.focus');
  return info.id;
}
