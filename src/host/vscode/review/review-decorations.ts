// Inline review marks in the editor: added lines get the diff editor's inserted-line background
// and a gutter bar; removed text, which no longer exists in the buffer, is shown after the line
// where it was, with the full removed text in the hover.
import * as vscode from 'vscode';
import type { Hunk } from './hunks';

const MAX_INLINE_CHARS = 80;

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
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    // Default colors of VS Code's own added-line gutter marks (an SVG cannot use theme colors).
    light: { gutterIconPath: gutterBar('#48985d'), gutterIconSize: 'auto' },
    dark: { gutterIconPath: gutterBar('#487e02'), gutterIconSize: 'auto' },
  });
  private readonly removedType = vscode.window.createTextEditorDecorationType({
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
    after: {
      color: new vscode.ThemeColor('editorGhostText.foreground'),
      backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
      margin: '0 0 0 2em',
      fontStyle: 'italic',
    },
  });
  /** What was last applied per editor document, for tests and for "is this file decorated". */
  private readonly applied = new Map<string, AppliedDecorations>();

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
        // Mark the first added line, or for a pure deletion the line just above the gap.
        const line = Math.min(lastLine, h.addedLines > 0 ? h.newLine : Math.max(0, h.newLine - 1));
        const end = doc.lineAt(line).range.end;
        removed.push({
          range: new vscode.Range(end, end),
          hoverMessage: new vscode.MarkdownString(
            vscode.l10n.t('Removed by the agent ({0} line(s)):', h.removedLines),
          ).appendCodeblock(h.oldText.replace(/\r?\n$/, ''), doc.languageId),
          renderOptions: { after: { contentText: removedSummary(h) } },
        });
      }
    }
    editor.setDecorations(this.addedType, added);
    editor.setDecorations(this.removedType, removed);
    this.applied.set(doc.uri.toString(), { added, removed: removed.map((r) => r.range) });
  }

  clear(editor: vscode.TextEditor): void {
    editor.setDecorations(this.addedType, []);
    editor.setDecorations(this.removedType, []);
    this.applied.delete(editor.document.uri.toString());
  }

  appliedTo(uri: vscode.Uri): AppliedDecorations | undefined {
    return this.applied.get(uri.toString());
  }

  dispose(): void {
    this.addedType.dispose();
    this.removedType.dispose();
    this.applied.clear();
  }
}

function removedSummary(h: Hunk): string {
  const first = h.oldText.split(/\r?\n/)[0]!.trim();
  const shown = first.length > MAX_INLINE_CHARS ? `${first.slice(0, MAX_INLINE_CHARS)}…` : first;
  const more =
    h.removedLines > 1 ? ` ${vscode.l10n.t('(+{0} more removed line(s))', h.removedLines - 1)}` : '';
  return `− ${shown}${more}`;
}
