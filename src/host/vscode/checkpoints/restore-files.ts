// "Restore files to here" in the editor: the workspace's files as a checkpoint recorded them, at a
// user's message or before an action. First a preview (each file with a diff against the
// checkpoint), unsaved buffers asked about (saved first, so the restore can be undone with them),
// files changed outside the agent after the checkpoint named as such; then the restore, recorded in
// the conversation as a checkpoint of the files before it, with Undo.
import * as vscode from 'vscode';
import { checkpointAt } from '../../../core/checkpoints/timeline';
import {
  checkpointEventValue,
  type CheckpointChange,
  CheckpointNotHeldError,
  RESTORE_VERB,
  RestoreFailedError,
} from '../../../core/checkpoints/types';
import { editedOutsideAgent } from '../../node/checkpoints/edited-outside';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import type { ConversationSession } from '../conversations/conversation-session';
import { printableLine } from '../../../core/text/printable';
import { checkpointUri, nowUri, refreshNowDocuments } from './checkpoint-documents';

export { CHECKPOINT_SCHEME } from './checkpoint-documents';

export interface PreviewFile {
  path: string;
  status: CheckpointChange['status'];
  /** Open in an editor with unsaved changes. */
  unsaved: boolean;
  /** Changed by someone other than the agent after the checkpoint (see `RestorePreview.editedBy`). */
  editedAfter: boolean;
}

export interface RestorePreview {
  checkpoint: string;
  workspace: string;
  files: PreviewFile[];
  /**
   * How `editedAfter` is known: 'log' from the states recorded after each action (exact); 'time'
   * guessed from modification times (a conversation recorded before after-states existed).
   */
  editedBy: 'log' | 'time';
  /** Forking is offered ("Continue from here and restore files"). */
  canFork: boolean;
}

/** The questions a restore asks. The editor's answer is the default; tests script their own. */
export interface RestoreUi {
  preview(
    p: RestorePreview,
    showDiff: (f: PreviewFile) => Promise<void>,
  ): Promise<'restore' | 'fork' | undefined>;
  /** Unsaved buffers among the files: true to save them and go on, false to stop. */
  saveUnsaved(paths: string[]): Promise<boolean>;
  /** Says what was done and offers Undo, which calls `undo`. */
  done(message: string, undo: () => Promise<void>): void;
  info(message: string): void;
}

export interface RestoreDeps {
  session: ConversationSession;
  store: WorkspaceCheckpointStore;
  /** "Continue from here": forks at the event and returns the new conversation's session. */
  fork(eventId: string): Promise<ConversationSession>;
  /** The fork "Continue from here" just made: the restore is recorded there, and no fork is offered. */
  recordIn?: ConversationSession;
  /** False: no fork is offered (a worktree task's conversation). */
  canFork?: boolean;
}

export interface RestoreOutcome {
  restored: number;
  /** The conversation the restore was recorded in (the fork's, when forking). */
  conversationId?: string;
  /** The checkpoint holding the files as they were before: restoring it undoes the restore. */
  before?: string;
}

export async function restoreFilesTo(
  deps: RestoreDeps,
  eventId: string,
  ui: RestoreUi = editorRestoreUi,
): Promise<RestoreOutcome> {
  const { session, store } = deps;
  const events = await session.conversation.events();
  const entry = checkpointAt(events, eventId);
  if (!entry) {
    ui.info(
      entry === null
        ? vscode.l10n.t('Logbook: this event is not in the conversation.')
        : vscode.l10n.t(
            'Logbook: the agent has changed no files since this point (no checkpoint after it): nothing to restore.',
          ),
    );
    return { restored: 0 };
  }
  const plan = await store.plan(entry.value.checkpoint).catch((err: unknown) => {
    if (!(err instanceof CheckpointNotHeldError)) throw err;
    return undefined;
  });
  if (!plan) {
    // A point a continued task copied from its source whose checkpoint was not copied along
    // (released there, or recorded where this window does not look): said, not a failure.
    ui.info(
      vscode.l10n.t(
        "Logbook: the files at this point cannot be restored: this conversation's checkpoints do not hold them (they were released, or recorded for another worktree).",
      ),
    );
    return { restored: 0 };
  }
  if (!plan.changes.length) {
    ui.info(vscode.l10n.t('Logbook: the files already match this point.'));
    return { restored: 0 };
  }
  const edited = await editedOutsideAgent(store, events, entry, plan);
  const files = plan.changes.map((c) => describe(store, c, edited.paths.has(c.path)));
  const checkpoint = entry.value.checkpoint;
  const choice = await ui.preview(
    {
      checkpoint,
      workspace: store.workspace,
      files,
      editedBy: edited.source,
      canFork: !deps.recordIn && deps.canFork !== false,
    },
    (f) => showDiff(checkpoint, f, session.id),
  );
  if (!choice) return { restored: 0 };
  const unsaved = files.filter((f) => f.unsaved).map((f) => f.path);
  if (unsaved.length) {
    if (!(await ui.saveUnsaved(unsaved))) return { restored: 0 };
    for (const p of unsaved) {
      // A save the editor refused (e.g. the file changed on disk meanwhile) leaves the edit out of
      // the checkpoint taken before the restore: then nothing is restored, and the buffer stays.
      if ((await openDocument(store, p)?.save()) === false) {
        ui.info(
          vscode.l10n.t(
            'Logbook: {0} could not be saved, so nothing was restored. Save it, then restore again.',
            p,
          ),
        );
        return { restored: 0 };
      }
    }
  }
  const target = deps.recordIn ?? (choice === 'fork' ? await deps.fork(entry.eventId) : session);
  const result = await store.restore(checkpoint, target.id).catch(async (err: unknown) => {
    // Some files may have changed already: the state before goes into the conversation anyway,
    // so "Restore files to here" on that event is the way back.
    refreshNowDocuments();
    if (err instanceof RestoreFailedError)
      await target.conversation.recordRestore(
        checkpointEventValue(err.before, { reason: 'restore', restoredTo: entry.eventId }),
      );
    throw err;
  });
  refreshNowDocuments();
  const recorded = await target.conversation.recordRestore(
    checkpointEventValue(result.before, { reason: 'restore', restoredTo: entry.eventId }),
  );
  const n = result.changes.length;
  ui.done(vscode.l10n.t('Logbook: restored {0} to this point.', fileCount(n)), async () => {
    const back = await store.restore(result.before.id, target.id);
    refreshNowDocuments();
    // The undo restored the checkpoint the restore recorded: the files it left are that one's.
    await target.conversation.recordRestore(
      checkpointEventValue(back.before, { reason: 'restore', restoredTo: recorded.id }),
    );
    ui.info(vscode.l10n.t('Logbook: the restore is undone ({0} back).', fileCount(back.changes.length)));
  });
  return { restored: n, conversationId: target.id, before: result.before.id };
}

function describe(store: WorkspaceCheckpointStore, c: CheckpointChange, editedAfter: boolean): PreviewFile {
  const doc = openDocument(store, c.path);
  return { path: c.path, status: c.status, unsaved: doc?.isDirty === true, editedAfter };
}

function openDocument(store: WorkspaceCheckpointStore, path: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(store.absolutePath(path)).fsPath;
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath);
}

/**
 * The file as the checkpoint holds it (left) against the file on disk now (right). Both sides are
 * Logbook's documents: the right one follows the disk (checkpoint-documents.ts), so the diff stays
 * true after a restore, an undo, or any other change of the file.
 */
async function showDiff(checkpoint: string, f: PreviewFile, conversation: string): Promise<void> {
  const left = checkpointUri(checkpoint, f.path, conversation);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    nowUri(f.path, conversation),
    vscode.l10n.t('{0} (checkpoint ↔ now)', f.path),
    {
      preview: true,
      preserveFocus: true,
    },
  );
}

/** The editor's questions: a Quick Pick preview (pick a file for its diff), modal dialogs. */
export const editorRestoreUi: RestoreUi = {
  preview(p, diff) {
    return new Promise((resolve) => {
      const qp = vscode.window.createQuickPick<
        vscode.QuickPickItem & { file?: PreviewFile; choice?: 'restore' | 'fork' }
      >();
      qp.title = vscode.l10n.t('Restore files to here: {0} will change', fileCount(p.files.length));
      qp.placeholder = vscode.l10n.t('Pick a file to see its diff (checkpoint ↔ now), or choose what to do');
      qp.ignoreFocusOut = true;
      qp.matchOnDescription = true;
      qp.items = [
        {
          label: vscode.l10n.t('$(discard) Restore Files'),
          description: fileCount(p.files.length),
          choice: 'restore',
        },
        ...(p.canFork
          ? [
              {
                label: vscode.l10n.t('$(repo-forked) Continue from Here and Restore Files'),
                choice: 'fork' as const,
              },
            ]
          : []),
        { label: '', kind: vscode.QuickPickItemKind.Separator },
        ...p.files.map((f) => ({
          label: `${icon(f.status)} ${printableLine(f.path)}`,
          description: [restoreVerb(f.status), f.unsaved ? vscode.l10n.t('has unsaved changes') : '']
            .filter(Boolean)
            .join(' · '),
          // A line of its own: a description this long is cut off in a narrow window.
          ...(f.editedAfter ? { detail: EDITED_AFTER[p.editedBy] } : {}),
          file: f,
        })),
      ];
      let settled = false;
      const finish = (v: 'restore' | 'fork' | undefined): void => {
        if (settled) return;
        settled = true;
        resolve(v);
        qp.dispose();
      };
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0];
        if (item?.choice) finish(item.choice);
        else if (item?.file) void diff(item.file);
      });
      qp.onDidHide(() => finish(undefined));
      qp.show();
    });
  },
  async saveUnsaved(paths) {
    const save = vscode.l10n.t('Save and Restore');
    const answer = await vscode.window.showWarningMessage(
      paths.length === 1
        ? vscode.l10n.t(
            '1 file has unsaved changes the restore would overwrite: {0}. Save it first (the restore can then be undone with it)?',
            paths.join(', '),
          )
        : vscode.l10n.t(
            '{0} files have unsaved changes the restore would overwrite: {1}. Save them first (the restore can then be undone with them)?',
            paths.length,
            paths.join(', '),
          ),
      { modal: true },
      save,
    );
    return answer === save;
  },
  done(message, undo) {
    const undoLabel = vscode.l10n.t('Undo');
    void vscode.window.showInformationMessage(message, undoLabel).then(async (a) => {
      if (a !== undoLabel) return;
      await undo().catch((err: unknown) =>
        vscode.window.showErrorMessage(
          vscode.l10n.t('Logbook: the undo failed: {0}', err instanceof Error ? err.message : String(err)),
        ),
      );
    });
  },
  info(message) {
    void vscode.window.showInformationMessage(message);
  },
};

/** How a file someone other than the agent changed is marked, by how that is known. */
export const EDITED_AFTER: Record<RestorePreview['editedBy'], string> = {
  log: vscode.l10n.t('$(warning) Edited outside the agent after this point'),
  time: vscode.l10n.t('$(warning) Changed after the agent’s last step'),
};

function fileCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', n);
}

/** What a restore does to a file, in words (each literal, so the translation bundle finds it). */
function restoreVerb(status: CheckpointChange['status']): string {
  const verbs: Record<CheckpointChange['status'], string> = {
    A: vscode.l10n.t('create'),
    M: vscode.l10n.t('overwrite'),
    T: vscode.l10n.t('replace'),
    D: vscode.l10n.t('delete'),
    R: vscode.l10n.t('rename'),
  };
  return verbs[status] ?? RESTORE_VERB[status];
}

function icon(status: CheckpointChange['status']): string {
  return status === 'A' ? '$(diff-added)' : status === 'D' ? '$(diff-removed)' : '$(diff-modified)';
}
