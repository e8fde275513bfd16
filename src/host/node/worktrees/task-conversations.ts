// A worktree task's conversation as the editor's Conversations view lists it: the conversation's id
// (its session.json), its entry (title, status, times, events, cost) read from its log without a
// writer lock, and the task's status as `logbook tasks` says it. A task with no conversation yet
// (its start failed before its log), or whose session file or log cannot be read, is not listed.
import { existsSync } from 'node:fs';
import type { StoredConversationEvent } from '../../../core/agent/event-codec';
import { isHostCommandCall } from '../../../core/agent/host-command';
import { type EventStore, hasLiveWriter } from '../../../core/log';
import { entryFromState, type IndexEntry, stateFromStore } from '../../../core/state';
import { type TaskRecord, type TaskStatus, taskStatus } from '../../../core/worktrees';
import { readSessionInfo } from '../cli/session-file';
import { taskOwnerAlive } from './task-owner';

export interface TaskConversation {
  record: TaskRecord;
  /** Its entry under the conversation's own id, as a window's conversations are listed. */
  entry: IndexEntry;
  status: TaskStatus;
  waitingForYou: boolean;
}

type Open = (dir: string) => Promise<EventStore<StoredConversationEvent>>;

export async function taskConversation(
  record: TaskRecord,
  open: Open,
): Promise<TaskConversation | undefined> {
  // An unreadable session file leaves the task out here; its Tasks view row says why when opened.
  let info;
  try {
    info = readSessionInfo(record.log);
  } catch {
    return undefined;
  }
  if (!info) return undefined;
  const store = await open(record.log).catch(() => undefined);
  if (!store) return undefined;
  try {
    const { state } = await stateFromStore(store, { id: info.id });
    const execution = store.length > 0 ? state.status : null;
    const seen = taskStatus({
      lifecycle: record.status,
      execution,
      // While the log holds nothing, the process that started the task counts (as `logbook tasks`).
      writerAlive: hasLiveWriter(record.log) || (execution === null && taskOwnerAlive(record.log)),
      worktreeExists: existsSync(record.worktree),
      settingUp: state.pendingActions.some((p) => isHostCommandCall(p.toolCallId)),
    });
    return {
      record,
      entry: entryFromState(info.id, state),
      status: seen.status,
      waitingForYou: seen.waitingForYou,
    };
  } finally {
    await store.close();
  }
}
