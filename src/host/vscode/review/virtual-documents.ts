// Read-only virtual documents for diff editors: `logbook-baseline:` serves a file's text before the
// agent touched it, `logbook-proposed:` the two sides of an edit awaiting confirmation. The file
// path is the URI path; the query says which conversation or proposal it belongs to.
import * as vscode from 'vscode';

export const BASELINE_SCHEME = 'logbook-baseline';
export const PROPOSED_SCHEME = 'logbook-proposed';

export type ProposalSide = 'before' | 'after';

export function baselineUri(conversationId: string, path: string): vscode.Uri {
  const query = new URLSearchParams({ conversation: conversationId }).toString();
  return vscode.Uri.from({ scheme: BASELINE_SCHEME, path: vscode.Uri.file(path).path, query });
}

export function proposedUri(proposalId: string, path: string, side: ProposalSide): vscode.Uri {
  const query = new URLSearchParams({ proposal: proposalId, side }).toString();
  return vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: vscode.Uri.file(path).path, query });
}

export interface VirtualRef {
  path: string;
  params: URLSearchParams;
}

export function parseVirtualUri(uri: vscode.Uri): VirtualRef {
  return {
    path: vscode.Uri.from({ scheme: 'file', path: uri.path }).fsPath,
    params: new URLSearchParams(uri.query),
  };
}

/**
 * Serves documents of one scheme from a lookup. Several extension-host copies may register the
 * same scheme (tests do): returning undefined for unknown documents lets another provider answer.
 */
export class VirtualDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly registration: vscode.Disposable;

  constructor(
    readonly scheme: string,
    private readonly lookup: (ref: VirtualRef) => string | undefined,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    return this.lookup(parseVirtualUri(uri));
  }

  /** Tells open documents of this scheme to reload. */
  refresh(uri?: vscode.Uri): void {
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === this.scheme);
    for (const doc of open) if (!uri || doc.uri.toString() === uri.toString()) this.changes.fire(doc.uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
  }
}
