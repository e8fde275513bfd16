// Logbook's writes to a workspace's or folder's settings go to the file on disk, not through
// VS Code's configuration API: that one edits VS Code's open copy of the file and saves it, and
// when the copy has not yet read a change made on disk, the save is refused ("the content of the
// file is newer") and the copy is left with Logbook's edit unsaved, which VS Code then refuses to
// write over, with no API to revert it. Here the disk's own text is edited, one property, and the
// copy (if open and unsaved-free) reloads from the disk. A copy with unsaved changes is the user's
// work: the write is refused and the copy left as it is.
import * as vscode from 'vscode';
import { valueText } from '../../../core/settings';

/** A settings file other than the user's: the workspace's, or a folder's. */
export type SettingsFileLayer = 'workspace' | 'folder';

/** How long a written value may take to be read back before the write returns anyway. */
const READ_BACK_MS = 5_000;

/** The file `layer`'s settings are kept in, and the object in it that holds them. */
function settingsFile(
  layer: SettingsFileLayer,
  folder: vscode.Uri | undefined,
): { uri: vscode.Uri; path: string[] } | undefined {
  const workspaceFile = vscode.workspace.workspaceFile;
  if (layer === 'workspace' && workspaceFile) {
    // An untitled workspace has no file of its own yet: VS Code's API saves it as it must.
    return workspaceFile.scheme === 'untitled' ? undefined : { uri: workspaceFile, path: ['settings'] };
  }
  const root = (layer === 'folder' ? folder : undefined) ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  return root && { uri: vscode.Uri.joinPath(root, '.vscode', 'settings.json'), path: [] };
}

async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
    throw err;
  }
}

/** Resolves once `reads()` gives `value`, or after READ_BACK_MS (the file is written either way). */
function readBack(reads: () => unknown, value: unknown): Promise<void> {
  const done = () => valueText(reads()) === valueText(value);
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(finish, READ_BACK_MS);
    const listener = vscode.workspace.onDidChangeConfiguration(() => {
      if (done()) finish();
    });
  });
}

/**
 * Sets (or, with undefined, removes) `name` (a full setting name) in `layer`'s settings file, then
 * waits until `reads()` gives the value, so the next read sees it as after a write through VS
 * Code's API. Returns false, writing nothing, when the window has no such file (no folder open, an
 * untitled workspace): VS Code's API then writes or says why not. Throws, writing nothing, when
 * the file has unsaved changes or is not JSON with comments.
 */
export async function writeSettingsFile(
  name: string,
  value: unknown,
  layer: SettingsFileLayer,
  folder: vscode.Uri | undefined,
  reads: () => unknown,
): Promise<boolean> {
  const target = settingsFile(layer, folder);
  if (!target) return false;
  const shown = vscode.workspace.asRelativePath(target.uri);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri.toString());
  if (open?.isDirty)
    throw new Error(
      vscode.l10n.t(
        '{0} has unsaved changes, so Logbook did not write {1} into it. Save or revert the file, then try again.',
        shown,
        name,
      ),
    );
  const before = await textOf(target.uri);
  // The editor (with jsonc-parser) loads on the first write, not with the extension.
  const { JsoncSyntaxError, setJsoncProperty } = await import('../../../core/settings/jsonc-edit');
  let after: string;
  try {
    after = setJsoncProperty(before ?? '', [...target.path, name], value);
  } catch (err) {
    if (!(err instanceof JsoncSyntaxError)) throw err;
    throw new Error(
      vscode.l10n.t(
        '{0} is not valid JSON ({1}), so Logbook did not write {2} into it. Correct the file, then try again.',
        shown,
        err.message,
        name,
      ),
    );
  }
  if (after !== (before ?? '')) {
    if (before === undefined)
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target.uri, '..'));
    await vscode.workspace.fs.writeFile(target.uri, new TextEncoder().encode(after));
  }
  await readBack(reads, value);
  return true;
}
