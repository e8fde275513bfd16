// What can be done from a row: continue the conversation from it, put the files back as they were
// there. Shown while the row is hovered or holds keyboard focus; in a card's head they take room from
// the summary (as inline actions do in the Source Control view), never from the badges.
import { send } from '../vscode-api';
import { header, restoreMeaning, type Row } from '../state/store';
import { IconButton } from './IconButton';
import { t } from '../lib/text';

export function RowTools({ row, conversationId }: { row: Row; conversationId: string }) {
  // The files as they were at a user's message or before an action: what a checkpoint holds.
  // A restore's own line: back to the files as they were before it, which undoes it (or, on the
  // line of an undo, restores again what it undid: a redo).
  const restoreLine = row.view === 'notice' && (row.event as { key?: unknown }).key === 'checkpoint';
  const redo = restoreLine && restoreMeaning(row.event).undo;
  const restorable =
    restoreLine ||
    row.view === 'action' ||
    (row.view === 'message' && (row.event as { source?: unknown }).source === 'user');
  return (
    <span class="row-tools">
      <IconButton
        icon="repo-forked"
        text={t('fork')}
        // A worktree task's conversation continues as a new task (its own branch and worktree).
        label={t(header.value?.task ? 'forkTaskTitle' : 'forkTitle')}
        onClick={() => send({ type: 'forkFrom', conversationId, eventId: row.event.id })}
      />
      {restorable && (
        <IconButton
          icon="discard"
          text={t(redo ? 'redo' : restoreLine ? 'undoRestore' : 'restore')}
          label={t(redo ? 'redoTitle' : restoreLine ? 'undoRestoreTitle' : 'restoreTitle')}
          onClick={() => send({ type: 'restoreFiles', conversationId, eventId: row.event.id })}
        />
      )}
    </span>
  );
}
