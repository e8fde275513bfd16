// Absolute paths <-> URIs the way the workspace sees them. In a remote window (code-server,
// Remote-SSH) workspace files are `vscode-remote://` URIs, not `file://`, so a path is turned into
// a URI by borrowing the scheme and authority of the workspace folders.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInsideAny, realPath } from '../../../core/security/resolve-path';

/** File-system paths of the workspace folders this extension host can reach. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
}

/** Refuses relative paths (ports take absolute paths) and removes `.`/`..` segments. */
export function normalizeAbsolute(p: string): string {
  if (!path.isAbsolute(p)) throw new Error(`Expected an absolute path, got "${p}"`);
  return path.resolve(p);
}

export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether `p` really lies in a workspace folder: judged where it leads (symlinks of its existing
 * ancestors followed, the folders by their real locations), so a symlink out of the workspace is
 * outside. The same resolution the risk rules use.
 */
export function isInWorkspace(p: string, roots: readonly string[] = workspaceRoots()): boolean {
  return isInsideAny(realPath(p), roots);
}

export function pathToUri(p: string): vscode.Uri {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const template = folders.find((f) => isInside(f.uri.fsPath, p))?.uri ?? folders[0]?.uri;
  if (!template || template.scheme === 'file') return vscode.Uri.file(p);
  return template.with({ path: vscode.Uri.file(p).path, query: '', fragment: '' });
}

/** Same resource, whatever the authority casing or the representation of the URI. */
export function sameResource(a: vscode.Uri, b: vscode.Uri): boolean {
  return (
    a.scheme === b.scheme && a.fsPath === b.fsPath && a.authority.toLowerCase() === b.authority.toLowerCase()
  );
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && sameResource(d.uri, uri));
}

/** Short display form: workspace-relative when possible. */
export function displayPath(p: string): string {
  const root = workspaceRoots().find((r) => isInside(r, p));
  return root ? path.relative(root, p) || path.basename(p) : p;
}

/**
 * Saves a dirty document so that the disk holds its text. VS Code's `save()` can resolve false for
 * a save that does happen (seen in code-server under load: the document turned clean and the file
 * held its text a moment later). So a false result is followed by a short wait for the document to
 * turn clean and, if it has not, a second save; it fails only when the text is not on disk then.
 */
export async function saveToDisk(document: vscode.TextDocument): Promise<void> {
  if (!document.isDirty || (await document.save())) return;
  await untilClean(document, SAVE_SETTLE_MS);
  if (document.isDirty) await document.save();
  const disk = await vscode.workspace.fs.readFile(document.uri).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  if (!document.isDirty && disk === document.getText()) return;
  const why = document.isDirty
    ? 'the editor still has unsaved changes'
    : 'the file on disk differs from the editor';
  throw new Error(`Could not save ${document.uri.fsPath}: ${why}.`);
}

const SAVE_SETTLE_MS = 3_000;

async function untilClean(document: vscode.TextDocument, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (document.isDirty && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}
