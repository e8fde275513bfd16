// The active editor's file or selection as an attachment part (the composer's toggles, the
// start-task command); the text itself is the core's one attachment format.
import * as vscode from 'vscode';
import { editorContextText } from '../../../core/attachments/attachment-text';

/** The attachment part for the editor's file or selection, as the toggles ask; none when nothing fits. */
export function editorContextParts(
  attachments?: { activeFile?: boolean; selection?: boolean },
  editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor,
): string[] {
  if (!editor || !attachments) return [];
  const path = vscode.workspace.asRelativePath(editor.document.uri);
  const { selection, document } = editor;
  if (attachments.selection && !selection.isEmpty) {
    const selected = {
      text: document.getText(selection),
      startLine: selection.start.line + 1,
      endLine: selection.end.line + 1,
      language: document.languageId,
    };
    return [editorContextText({ path, selection: selected })];
  }
  if (attachments.activeFile) return [editorContextText({ path })];
  return [];
}
