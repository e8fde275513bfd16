// The active editor's file or selection as text attached to a message (the composer's toggles).
import * as vscode from 'vscode';

/** The active file or selection, attached to a message as context the agent can read. */
export function attachmentText(attachments?: { activeFile?: boolean; selection?: boolean }): string {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !attachments) return '';
  const path = vscode.workspace.asRelativePath(editor.document.uri);
  if (attachments.selection && !editor.selection.isEmpty) {
    const text = editor.document.getText(editor.selection);
    const from = editor.selection.start.line + 1;
    return `\n\nSelected in ${path} (from line ${from}):\n\`\`\`\n${text}\n\`\`\``;
  }
  if (attachments.activeFile) return `\n\nThe file I am looking at: ${path}`;
  return '';
}
