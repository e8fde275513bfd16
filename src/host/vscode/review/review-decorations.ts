// Inline review marks in the editor: added lines get the diff editor's inserted-line background
// and a gutter bar. Removed text no longer exists in the buffer; it is shown where it was, in the
// CodeLens row above the hunk (see review-codelens.ts), and here only marked in the overview ruler
// with the full text in the hover, never drawn after a line where it would read as code.
import * as vscode from 'vscode';
import type { Hunk } from './hunks';

function gutterBar(color: string): vscode.Uri {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="24"><rect width="3" height="24" fill="${color}"/></svg>`;
  return vscode.Uri.parse(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
}

export interface AppliedDecorations {
  added: vscode.Range[];
  removed: vscode.Range[];
}

export class ReviewDecorations implements vscode.Disposable {
  private readonly addedType = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    // High contrast themes draw no inserted background; their diff editor outlines the lines
    // instead (the colour is unset, so no outline, in other themes).
    borderColor: new vscode.ThemeColor('diffEditor.insertedTextBorder'),
    borderStyle: 'dashed',
    borderWidth: '1px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    // Default colors of VS Code's own added-line gutter marks (an SVG cannot use theme colors).
    light: { gutterIconPath: gutterBar('#48985d'), gutterIconSize: 'auto' },
    dark: { gutterIconPath: gutterBar('#487e02'), gutterIconSize: 'auto' },
  });
  private readonly removedType = vscode.window.createTextEditorDecorationType({
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  /**
   * What was last applied per editor (an editor, not a file: one file can be visible in several
   * editors, e.g. beside the Agent Changes diff, and each must be cleared on its own).
   */
  private readonly applied = new Map<vscode.TextEditor, AppliedDecorations>();

  apply(editor: vscode.TextEditor, hunks: readonly Hunk[]): void {
    const doc = editor.document;
    const lastLine = Math.max(0, doc.lineCount - 1);
    const added: vscode.Range[] = [];
    const removed: vscode.DecorationOptions[] = [];
    for (const h of hunks) {
      if (h.addedLines > 0) {
        const last = Math.min(lastLine, h.newLine + h.addedLines - 1);
        added.push(new vscode.Range(h.newLine, 0, last, 0));
      }
      if (h.removedLines > 0) {
        // The line the removed text stood before (for a deletion at the end, the last line).
        const line = Math.min(lastLine, h.newLine);
        removed.push({
          range: doc.lineAt(line).range,
          hoverMessage: new vscode.MarkdownString(
            vscode.l10n.t('Removed by the agent above this line ({0} line(s)):', h.removedLines),
          ).appendCodeblock(h.oldText.replace(/\r?\n$/, ''), doc.languageId),
        });
      }
    }
    editor.setDecorations(this.addedType, added);
    editor.setDecorations(this.removedType, removed);
    this.applied.set(editor, { added, removed: removed.map((r) => r.range) });
  }

  clear(editor: vscode.TextEditor): void {
    editor.setDecorations(this.addedType, []);
    editor.setDecorations(this.removedType, []);
    this.applied.delete(editor);
  }

  /** Forgets editors no longer visible (their decorations went with them). */
  forgetHidden(visible: readonly vscode.TextEditor[]): void {
    for (const editor of [...this.applied.keys()]) if (!visible.includes(editor)) this.applied.delete(editor);
  }

  /** Decorations of the first decorated editor showing `uri`. */
  appliedTo(uri: vscode.Uri): AppliedDecorations | undefined {
    return this.appliedIn(uri)[0];
  }

  /** Decorations of every decorated editor showing `uri`. */
  appliedIn(uri: vscode.Uri): AppliedDecorations[] {
    const key = uri.toString();
    return [...this.applied].filter(([e]) => e.document.uri.toString() === key).map(([, d]) => d);
  }

  dispose(): void {
    this.addedType.dispose();
    this.removedType.dispose();
    this.applied.clear();
  }
}

/** The first removed line, shortened, for the row shown where the removed text was. */
export function removedSummary(h: Hunk, maxChars = 60): string {
  const first = h.oldText.split(/\r?\n/)[0]!.trim();
  return first.length > maxChars ? `${first.slice(0, maxChars)}…` : first;
}
