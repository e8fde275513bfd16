// The documents of the restore preview's diffs: `logbook-checkpoint:/path?checkpoint=<id>` is a
// file as a checkpoint holds it (empty where it holds no such file), `…?now=1` the file as it is on
// disk now (empty where there is none). A file opened at a point of the timeline is named for that
// point (`math.js (at event 12, read-only)`, the file's path in `file=`), so its tab never reads
// like the live file's. A checkpoint never changes; "now" does, so every open "now"
// document is told to reload right after a restore or its undo, after every step of an agent, and
// when the editor saves or reloads the file: an open diff never shows a "now" that is gone.
// `conversation=<id>` names whose checkpoints and files these are: a worktree task's conversation
// reads its worktree's, every other one the window's.
//
// No file system watcher: in code-server a watcher an extension makes also feeds the editor's own
// file events, and a file with unsaved changes could then be taken as changed on disk and refused
// a save (seen with the restore's "save first" question).
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { WorkspaceCheckpointStore } from '../../node/checkpoints/workspace-store';

export const CHECKPOINT_SCHEME = 'logbook-checkpoint';

/** The conversation a document belongs to, as a query parameter (none: the window's). */
function of(conversation: string | undefined): Record<string, string> {
  return conversation === undefined ? {} : { conversation };
}

export function checkpointUri(checkpoint: string, path: string, conversation?: string): vscode.Uri {
  const query = new URLSearchParams({ checkpoint, ...of(conversation) }).toString();
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: '/' + path, query });
}

/** The file as the checkpoint of `event` (1-based, as the timeline counts) holds it, named so. */
export function pointUri(checkpoint: string, path: string, event: number, conversation?: string): vscode.Uri {
  const query = new URLSearchParams({ checkpoint, file: path, ...of(conversation) }).toString();
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${pointName(path, event)}`, query });
}

/** The name a file opened at a point shows: which point, and that it cannot be edited. */
export function pointName(path: string, event: number): string {
  return `${path} (at event ${event}, read-only)`;
}

export function nowUri(path: string, conversation?: string): vscode.Uri {
  const query = new URLSearchParams({ now: '1', ...of(conversation) }).toString();
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: '/' + path, query });
}

class CheckpointDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly store: (conversation?: string) => WorkspaceCheckpointStore,
    agentSteps: vscode.Event<unknown>,
  ) {
    const fileChanged = (doc: vscode.TextDocument) => {
      if (doc.uri.scheme === 'file' && !doc.isDirty) this.refresh(doc.uri.fsPath);
    };
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, this),
      vscode.workspace.onDidSaveTextDocument(fileChanged),
      // A file open in an editor that changed on disk is reloaded: a change that leaves it clean.
      vscode.workspace.onDidChangeTextDocument((e) => fileChanged(e.document)),
      agentSteps(() => this.refresh()),
      this.changes,
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const path = q.get('file') ?? uri.path.replace(/^\//, '');
    const store = this.store(q.get('conversation') ?? undefined);
    if (q.get('now')) return readFile(store.absolutePath(path), 'utf8').catch(() => '');
    const id = q.get('checkpoint');
    if (!id) return '';
    const bytes = await store.fileAt(id, path);
    return bytes ? bytes.toString('utf8') : '';
  }

  /** Tells the open "now" documents (of `fsPath`, or all) to reload. */
  refresh(fsPath?: string): void {
    for (const doc of vscode.workspace.textDocuments) {
      const q = new URLSearchParams(doc.uri.query);
      if (doc.uri.scheme !== CHECKPOINT_SCHEME || !q.get('now')) continue;
      const path = doc.uri.path.replace(/^\//, '');
      const store = this.store(q.get('conversation') ?? undefined);
      if (fsPath === undefined || store.absolutePath(path) === fsPath) this.changes.fire(doc.uri);
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

let current: CheckpointDocuments | undefined;

/** Serves the diffs' documents from their conversation's checkpoint store (as it is when one is read). */
export function registerCheckpointDocuments(
  store: (conversation?: string) => WorkspaceCheckpointStore,
  agentSteps: vscode.Event<unknown>,
): vscode.Disposable {
  current?.dispose();
  const documents = new CheckpointDocuments(store, agentSteps);
  current = documents;
  return new vscode.Disposable(() => {
    documents.dispose();
    if (current === documents) current = undefined;
  });
}

/** After files changed on disk outside the editor (a restore): open "now" documents reload. */
export function refreshNowDocuments(): void {
  current?.refresh();
}
