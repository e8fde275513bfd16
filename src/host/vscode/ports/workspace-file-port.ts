// FilePort on the VS Code workspace: edits go through WorkspaceEdit so an open editor (even one
// with unsaved changes) is edited in place and the user can undo the agent with Ctrl+Z; reads
// prefer the open buffer, which is what the user sees.
import * as vscode from 'vscode';
import { isInsideAny, realPath } from '../../../core/security/resolve-path';
import { type FilePort, PathMovedError, type WriteExpectation } from '../../../core/tools/ports';
import { separateHardLink } from '../../node/ports/replace-file';
import { lineEndingStyle, minimalReplacement } from './text-edits';
import {
  isInWorkspace,
  normalizeAbsolute,
  openDocument,
  pathToUri,
  saveToDisk,
  workspaceRoots,
} from './workspace-paths';

export interface WorkspaceFilePortOptions {
  /**
   * Asked before the agent writes or deletes a path outside every workspace folder (judged where
   * it really leads, symlinks followed); the write is refused unless it resolves true. Default: a
   * modal warning the user must answer.
   */
  confirmOutside?: (path: string) => Promise<boolean>;
  /**
   * Folders besides the workspace the agent may write (`logbook.sandbox.writable`): written
   * without that warning. The file tools refuse every other place before they reach the port.
   */
  writable?: () => readonly string[];
  /** The conversation's workspace folders (a worktree task's: its worktree); default: the window's. */
  roots?: () => readonly string[];
}

export class OutsideWorkspaceError extends Error {
  constructor(readonly path: string) {
    super(`Refused to change ${path}: it is outside the workspace folders and the user did not allow it.`);
    this.name = 'OutsideWorkspaceError';
  }
}

/** The agent's edits as the undo history names them. */
const editLabel = (): vscode.WorkspaceEditEntryMetadata => ({
  label: vscode.l10n.t('Logbook agent edit'),
  needsConfirmation: false,
});

export class WorkspaceFilePort implements FilePort {
  /** Outside paths the user already allowed, so one file is not asked about at every edit. */
  private readonly allowedOutside = new Set<string>();

  constructor(private readonly options: WorkspaceFilePortOptions = {}) {}

  get roots(): readonly string[] {
    return this.options.roots?.() ?? workspaceRoots();
  }

  async readText(path: string): Promise<string | undefined> {
    const uri = pathToUri(normalizeAbsolute(path));
    const open = openDocument(uri);
    if (open) return open.getText();
    const bytes = await readFileOrUndefined(uri);
    return bytes && new TextDecoder().decode(bytes);
  }

  async writeText(path: string, text: string, expect?: WriteExpectation): Promise<void> {
    const abs = normalizeAbsolute(path);
    if (expect) stillLeadsTo(abs, expect);
    await this.ensureAllowed(abs);
    // VS Code saves in place, which would also change every other hard link of the file (maybe one
    // outside the workspace): the path is made a file of its own first. An open buffer is kept.
    await separateHardLink(abs);
    const uri = pathToUri(abs);
    let document = openDocument(uri);
    if (!document) {
      const existing = await statOrUndefined(uri);
      // Checked again right before the edit: the editor writes where the path leads then.
      if (expect) stillLeadsTo(abs, expect);
      if (!existing) return this.createFile(uri, text);
      if (existing.type & vscode.FileType.Directory) throw new Error(`${abs} is a directory`);
      document = await vscode.workspace.openTextDocument(uri);
    }
    if (expect) stillLeadsTo(abs, expect);
    await replaceDocumentText(document, text);
    // Saving also writes the user's unsaved text the edit was based on: the disk must hold what
    // the agent saw, or the commands it runs next would test something else.
    await saveToDisk(document);
  }

  async delete(path: string, expect?: WriteExpectation): Promise<void> {
    const abs = normalizeAbsolute(path);
    if (expect) stillLeadsTo(abs, expect);
    await this.ensureAllowed(abs);
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(pathToUri(abs), { ignoreIfNotExists: true }, editLabel());
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not delete ${abs}`);
  }

  async stat(path: string): Promise<{ type: 'file' | 'directory'; size: number } | undefined> {
    const st = await statOrUndefined(pathToUri(normalizeAbsolute(path)));
    if (!st) return undefined;
    return { type: st.type & vscode.FileType.Directory ? 'directory' : 'file', size: st.size };
  }

  async list(path: string): Promise<string[]> {
    const entries = await vscode.workspace.fs.readDirectory(pathToUri(normalizeAbsolute(path)));
    return entries
      .map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name))
      .sort((a, b) => a.localeCompare(b));
  }

  private async createFile(uri: vscode.Uri, text: string): Promise<void> {
    // `contents` writes the exact bytes (no line-ending normalization) and creates parent folders;
    // the creation is one undoable file operation.
    const edit = new vscode.WorkspaceEdit();
    edit.createFile(uri, { contents: new TextEncoder().encode(text), overwrite: true }, editLabel());
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not create ${uri.fsPath}`);
  }

  private async ensureAllowed(abs: string): Promise<void> {
    if (isInWorkspace(abs, this.roots)) return;
    // Remembered by where it leads, so a symlink retargeted later is asked about again.
    const real = realPath(abs);
    if (isInsideAny(real, this.options.writable?.() ?? [])) return;
    if (this.allowedOutside.has(real)) return;
    const confirm = this.options.confirmOutside ?? askToWriteOutside;
    if (!(await confirm(real === abs ? abs : `${abs} (a symlink to ${real})`)))
      throw new OutsideWorkspaceError(abs);
    this.allowedOutside.add(real);
  }
}

/** Refuses a write whose path leads elsewhere than where it was checked (a symlink changed). */
function stillLeadsTo(abs: string, expect: WriteExpectation): void {
  const now = realPath(abs);
  if (now !== expect.real) throw new PathMovedError(abs, expect.real, now);
}

async function askToWriteOutside(path: string): Promise<boolean> {
  const allow = vscode.l10n.t('Allow');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Allow Logbook to write outside the workspace?'),
    { modal: true, detail: path },
    allow,
  );
  return answer === allow;
}

/** Replaces the document's text with the smallest edit, in the buffer (unsaved text included). */
export async function replaceDocumentText(document: vscode.TextDocument, text: string): Promise<void> {
  const old = document.getText();
  if (old === text) return;
  const edit = new vscode.WorkspaceEdit();
  const wanted = lineEndingStyle(text);
  const current = document.eol === vscode.EndOfLine.CRLF ? 'crlf' : 'lf';
  if ((wanted === 'lf' || wanted === 'crlf') && wanted !== current) {
    // A document has one line ending; switching it needs an explicit end-of-line edit.
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(old.length));
    const eol = wanted === 'crlf' ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF;
    edit.set(document.uri, [vscode.TextEdit.replace(whole, text), vscode.TextEdit.setEndOfLine(eol)]);
  } else {
    const r = minimalReplacement(old, text);
    const range = new vscode.Range(document.positionAt(r.start), document.positionAt(r.end));
    edit.replace(document.uri, range, r.text, editLabel());
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not edit ${document.uri.fsPath}`);
}

function isNotFound(err: unknown): boolean {
  if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return true;
  return /FileNotFound|EntryNotFound|ENOENT/.test(String((err as { code?: unknown })?.code ?? err));
}

export async function statOrUndefined(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function readFileOrUndefined(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
