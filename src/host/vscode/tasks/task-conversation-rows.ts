// The worktree tasks' conversations as the Conversations view lists them (loaded with the task
// commands): each task of the window's repository that has a conversation, where its log and
// worktree are, and its status. What crosses to the main bundle is plain data.
import type { IndexEntry } from '../../../core/state';
import type { TaskStatus } from '../../../core/worktrees';
import type { TaskConversationPlace } from '../conversations/task-conversation-place';
import { placeOf } from './task-chat';
import { editorTasks, taskPlace } from './task-place';

export interface TaskConversationRow {
  place: TaskConversationPlace;
  entry: IndexEntry;
  status: TaskStatus;
  waitingForYou: boolean;
}

/** The tasks' conversations; none when the window's folder is not in a repository. */
export async function taskConversationRows(): Promise<TaskConversationRow[]> {
  const place = await taskPlace().catch(() => undefined);
  if (!place) return [];
  const { conversationOf } = await editorTasks();
  const rows = await Promise.all(place.store.list().map((r) => conversationOf(r).catch(() => undefined)));
  return rows.flatMap((c) =>
    c ? [{ place: placeOf(c.record), entry: c.entry, status: c.status, waitingForYou: c.waitingForYou }] : [],
  );
}

/** The place of task `name`'s conversation `id`, or undefined when that task has no such conversation. */
export async function taskConversationPlace(
  name: string,
  id: string,
): Promise<TaskConversationPlace | undefined> {
  const place = await taskPlace().catch(() => undefined);
  if (!place?.store.has(name)) return undefined;
  const record = place.store.get(name);
  return (await editorTasks()).readSessionInfo(record.log)?.id === id ? placeOf(record) : undefined;
}
