// The chat timeline's part in the editor: one ConversationTimeline per conversation looked at, and
// the editors it opens. A changed file's diffs (the first checkpoint to the point, the point to the
// file now) and "Open files at this point" are served by the checkpoint documents' own read-only
// scheme (checkpoint-documents.ts), so nothing the timeline opens can be edited or saved over.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { TimelinePoint } from '../../../protocol/messages';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';
import { checkpointUri, nowUri, pointUri } from '../checkpoints/checkpoint-documents';
import { ConversationTimeline, type TimelineLog, TimelineError } from './timeline-source';

/** Files "Open files at this point" opens at most (the list says how many more there are). */
export const OPEN_FILES_MAX = 10;

/** Conversations whose timeline is kept (each holds its events and some snapshots in memory). */
const KEPT = 3;

export class TimelineHost {
  private readonly timelines = new Map<string, ConversationTimeline>();

  constructor(
    private readonly logOf: (conversationId: string) => Promise<TimelineLog>,
    /** A conversation's checkpoints: a worktree task's are its worktree's. */
    private readonly store: (conversationId: string) => WorkspaceCheckpointStore,
  ) {}

  async pointAt(conversationId: string, seq: number): Promise<TimelinePoint> {
    return (await this.timeline(conversationId)).pointAt(seq);
  }

  /** The diff of a changed file: from the first checkpoint to the point, or from the point to now. */
  async openDiff(conversationId: string, seq: number, path: string, against: 'start' | 'now'): Promise<void> {
    const f = await (await this.timeline(conversationId)).changedFile(seq, path);
    if (!f.start || !f.at)
      throw new TimelineError(vscode.l10n.t('No checkpoint holds the files at this point.'));
    const name = basename(path);
    if (against === 'start')
      await vscode.commands.executeCommand(
        'vscode.diff',
        checkpointUri(f.start, f.change.from ?? path, conversationId),
        checkpointUri(f.at, path, conversationId),
        `${name} (start ↔ event ${seq + 1})`,
      );
    else
      await vscode.commands.executeCommand(
        'vscode.diff',
        checkpointUri(f.at, path, conversationId),
        nowUri(path, conversationId),
        `${name} (event ${seq + 1} ↔ now)`,
      );
  }

  /** Opens the point's version of each file changed up to it (deleted ones have none), read-only. */
  async openFiles(conversationId: string, seq: number): Promise<vscode.Uri[]> {
    const f = await (await this.timeline(conversationId)).filesAt(seq);
    if (!f.at) throw new TimelineError(vscode.l10n.t('No checkpoint holds the files at this point.'));
    const at = f.at;
    const present = f.changes.filter((c) => c.status !== 'D');
    if (present.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: no file the conversation changed exists at event {0}.', seq + 1),
      );
      return [];
    }
    const shown = present.slice(0, OPEN_FILES_MAX);
    const uris = shown.map((c) => pointUri(at, c.path, seq + 1, conversationId));
    for (const [i, uri] of uris.entries()) {
      let doc = await vscode.workspace.openTextDocument(uri);
      // Its name ends in the point, not the file's extension: take the language the file's own
      // name gives (a checkpoint document of the plain path, never shown).
      const plain = await vscode.workspace.openTextDocument(
        checkpointUri(at, shown[i]!.path, conversationId),
      );
      if (doc.languageId !== plain.languageId)
        doc = await vscode.languages.setTextDocumentLanguage(doc, plain.languageId);
      await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
    }
    if (present.length > uris.length)
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Logbook: opened {0} of the {1} files at event {2}; their diffs open the others.',
          uris.length,
          present.length,
          seq + 1,
        ),
      );
    return uris;
  }

  /** Forgets a conversation (deleted): its timeline is rebuilt if it is looked at again. */
  forget(conversationId: string): void {
    this.timelines.delete(conversationId);
  }

  private async timeline(conversationId: string): Promise<ConversationTimeline> {
    let t = this.timelines.get(conversationId);
    if (t) {
      // Most recently used last.
      this.timelines.delete(conversationId);
      this.timelines.set(conversationId, t);
      return t;
    }
    t = new ConversationTimeline(
      conversationId,
      () => this.logOf(conversationId),
      () => this.store(conversationId),
    );
    this.timelines.set(conversationId, t);
    while (this.timelines.size > KEPT) this.timelines.delete(this.timelines.keys().next().value!);
    return t;
  }
}
