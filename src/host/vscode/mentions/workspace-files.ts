// The workspace's files and folders for mention completion: listed once with workspace.findFiles
// (VS Code's own search, honouring files.exclude and search.exclude), kept until a file is created,
// deleted or renamed, and ranked per keystroke in memory.
import * as vscode from 'vscode';
import { rankFuzzy } from '../../../core/mentions/fuzzy-rank';
import { vscodeSetting } from '../settings/config';

/** Files listed at most; a bigger workspace is completed from its first ones (VS Code's order). */
export const MAX_LISTED_FILES = 200_000;

export interface WorkspaceEntry {
  /** Workspace-relative, '/'-separated; folders end with '/'. */
  path: string;
  lower: string;
  folder: boolean;
}

export class WorkspaceFiles implements vscode.Disposable {
  private listing: Promise<WorkspaceEntry[]> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  /** Watches for files coming and going once a listing exists (nothing is watched before a mention). */
  private watch(): void {
    if (this.disposables.length > 0) return;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    const stale = () => (this.listing = undefined);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(stale),
      watcher.onDidDelete(stale),
      vscode.workspace.onDidChangeWorkspaceFolders(stale),
      vscode.workspace.onDidRenameFiles(stale),
    );
  }

  /** The best `limit` files and folders for `query`. */
  async search(query: string, limit: number): Promise<WorkspaceEntry[]> {
    const entries = await this.entries();
    return rankFuzzy(
      entries,
      query,
      limit,
      (e) => e.path,
      (e) => e.lower,
    );
  }

  entries(): Promise<WorkspaceEntry[]> {
    this.watch();
    this.listing ??= list().catch((err: unknown) => {
      this.listing = undefined;
      throw err;
    });
    return this.listing;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
  }
}

async function list(): Promise<WorkspaceEntry[]> {
  const uris = await vscode.workspace.findFiles('**/*', excludeGlob(), MAX_LISTED_FILES);
  const files = uris.map((u) => vscode.workspace.asRelativePath(u, hasSeveralRoots()).replace(/\\/g, '/'));
  const folders = new Set<string>();
  for (const f of files) {
    for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i + 1));
  }
  const entry = (path: string, folder: boolean): WorkspaceEntry => ({
    path,
    lower: path.toLowerCase(),
    folder,
  });
  return [...[...folders].map((p) => entry(p, true)), ...files.map((p) => entry(p, false))];
}

function hasSeveralRoots(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

/** files.exclude and search.exclude together, plus dependency and VCS folders nobody mentions. */
function excludeGlob(): string {
  const globs = new Set(['**/node_modules/**', '**/.git/**']);
  for (const section of ['files.exclude', 'search.exclude']) {
    const map = vscodeSetting<Record<string, unknown>>(section) ?? {};
    // Nested braces do not combine into one pattern: those few are left to files.exclude's own use.
    for (const [glob, on] of Object.entries(map)) if (on === true && !/[{}]/.test(glob)) globs.add(glob);
  }
  return `{${[...globs].join(',')}}`;
}
