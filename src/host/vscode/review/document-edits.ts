// The file changes a review decision makes, all through WorkspaceEdit so the user can undo them,
// and saved so the disk (what the agent's next command sees) matches the editor.
import * as vscode from 'vscode';
import { replaceDocumentText } from '../ports/workspace-file-port';
import { openDocument, pathToUri, saveToDisk } from '../ports/workspace-paths';
import type { Hunk } from './hunks';

/** Puts a hunk's baseline text back in place of its current text. */
export async function revertHunk(document: vscode.TextDocument, hunk: Hunk): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const range = new vscode.Range(
    document.positionAt(hunk.newStart),
    document.positionAt(hunk.newStart + hunk.newText.length),
  );
  edit.replace(document.uri, range, hunk.oldText, {
    label: vscode.l10n.t('Reject agent change'),
    needsConfirmation: false,
  });
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error(vscode.l10n.t('Could not revert a change in {0}', document.uri.fsPath));
  await saveToDisk(document);
}

export async function restoreText(document: vscode.TextDocument, text: string): Promise<void> {
  await replaceDocumentText(document, text);
  await saveToDisk(document);
}

/** Removes a file the agent created (rejecting its creation). */
export async function deleteCreatedFile(path: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.deleteFile(
    pathToUri(path),
    { ignoreIfNotExists: true },
    { label: vscode.l10n.t('Reject agent file'), needsConfirmation: false },
  );
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('Could not delete {0}', path));
}

/** The open buffer's text, else the file's, else undefined when it does not exist. */
export async function readCurrentText(path: string): Promise<string | undefined> {
  const uri = pathToUri(path);
  const open = openDocument(uri);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
