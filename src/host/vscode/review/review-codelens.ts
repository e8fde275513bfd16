// "Accept | Reject" above each hunk and "Accept All | Reject All" at the top of a file under review.
// The row above a hunk is also where its removed text was, so that row names it too.
import * as vscode from 'vscode';
import type { Hunk } from './hunks';
import { removedSummary } from './review-decorations';
import type { FileRef, HunkRef, ReviewCommandIds } from './review-commands';

export interface ReviewedDocument {
  conversationId: string;
  path: string;
  hunks: Hunk[];
}

export class ReviewCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changes.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly commands: ReviewCommandIds,
    private readonly reviewOf: (document: vscode.TextDocument) => ReviewedDocument | undefined,
  ) {
    this.registration = vscode.languages.registerCodeLensProvider({ pattern: '**' }, this);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.reviewOf(document);
    if (!review || review.hunks.length === 0) return [];
    const file: FileRef = { conversationId: review.conversationId, path: review.path };
    const top = new vscode.Range(0, 0, 0, 0);
    const count = review.hunks.length;
    const lenses = [
      new vscode.CodeLens(top, {
        title:
          count === 1
            ? vscode.l10n.t('$(check-all) Accept All (1 change)')
            : vscode.l10n.t('$(check-all) Accept All ({0} changes)', count),
        command: this.commands.acceptFile,
        arguments: [file],
        tooltip: vscode.l10n.t('Keep every change the agent made to this file'),
      }),
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('$(discard) Reject All'),
        command: this.commands.rejectFile,
        arguments: [file],
        tooltip: vscode.l10n.t('Restore this file as it was before the agent changed it'),
      }),
    ];
    const lastLine = Math.max(0, document.lineCount - 1);
    for (const h of review.hunks) {
      const at = new vscode.Range(Math.min(h.newLine, lastLine), 0, Math.min(h.newLine, lastLine), 0);
      const ref: HunkRef = { ...file, oldStart: h.oldStart, oldText: h.oldText, newText: h.newText };
      lenses.push(
        new vscode.CodeLens(at, {
          title: vscode.l10n.t('$(check) Accept'),
          command: this.commands.acceptHunk,
          arguments: [ref],
          tooltip: vscode.l10n.t('Keep this change of the agent'),
        }),
        new vscode.CodeLens(at, {
          title: vscode.l10n.t('$(close) Reject'),
          command: this.commands.rejectHunk,
          arguments: [ref],
          tooltip:
            h.removedLines > 0
              ? vscode.l10n.t('Undo this change: put the removed text back')
              : vscode.l10n.t('Undo this change: remove the added text'),
        }),
      );
      if (h.removedLines > 0) lenses.push(removedLens(at, h, review.conversationId, this.commands));
    }
    return lenses;
  }

  refresh(): void {
    this.changes.fire();
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
  }
}

/** The removed text of a hunk, in the row above the lines that replaced it; opens the diff. */
function removedLens(at: vscode.Range, h: Hunk, conversationId: string, commands: ReviewCommandIds) {
  // A "$(" in code would otherwise be drawn as an icon.
  const first = removedSummary(h).replace(/\$\(/g, '$\u200b(');
  const title =
    h.removedLines === 1
      ? vscode.l10n.t('$(diff-removed) removed: {0}', first)
      : vscode.l10n.t('$(diff-removed) removed: {0} (+{1} more lines)', first, h.removedLines - 1);
  return new vscode.CodeLens(at, {
    title,
    command: commands.showChanges,
    arguments: [conversationId],
    tooltip: vscode.l10n.t('Removed by the agent here:\n{0}', h.oldText.replace(/\r?\n$/, '')),
  });
}
