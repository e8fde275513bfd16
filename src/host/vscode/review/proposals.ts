// Edits awaiting the user's confirmation, shown as a diff before anything is written: the left side
// is the file's review baseline (or its current text), the right side a `logbook-proposed:`
// document with the proposed text. The chat panel (or the diff editor's title buttons) decides.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  PROPOSED_SCHEME,
  proposedUri,
  VirtualDocumentProvider,
  type ProposalSide,
} from './virtual-documents';

export type ProposalDecision = 'confirm' | 'reject';

export interface ProposalRequest {
  /** Stable id, e.g. the action id; used to close or decide the proposal later. */
  id: string;
  path: string;
  newText: string;
  /** Left side of the diff; default a snapshot of `before`. */
  original?: vscode.Uri;
  /** Text shown on the left when no `original` is given (the current text, '' for a new file). */
  before?: string;
  title?: string;
}

interface OpenProposal {
  request: ProposalRequest;
  decide?: (decision: ProposalDecision) => void;
}

export class Proposals implements vscode.Disposable {
  private readonly open = new Map<string, OpenProposal>();
  private readonly documents = new VirtualDocumentProvider(PROPOSED_SCHEME, ({ params }) => {
    const proposal = this.open.get(params.get('proposal') ?? '');
    if (!proposal) return undefined;
    return (params.get('side') as ProposalSide) === 'after'
      ? proposal.request.newText
      : (proposal.request.before ?? '');
  });
  private readonly decisions = new vscode.EventEmitter<{ id: string; decision: ProposalDecision }>();
  /** Fires when a proposal is decided (from the chat panel or from the diff editor). */
  readonly onDidDecide = this.decisions.event;

  /** Opens (or refreshes) the diff of a proposal. */
  async show(request: ProposalRequest): Promise<void> {
    const existing = this.open.get(request.id);
    this.open.set(request.id, { request, ...(existing?.decide ? { decide: existing.decide } : {}) });
    const modified = proposedUri(request.id, request.path, 'after');
    const original = request.original ?? proposedUri(request.id, request.path, 'before');
    this.documents.refresh(modified);
    const title = request.title ?? `${path.basename(request.path)}: proposed edit (Logbook)`;
    await vscode.commands.executeCommand('vscode.diff', original, modified, title, { preview: false });
  }

  /** Shows the proposal and resolves with the decision given later to `close`/`decide`. */
  propose(request: ProposalRequest): Promise<ProposalDecision> {
    const decided = new Promise<ProposalDecision>((resolve) => {
      this.open.set(request.id, { request, decide: resolve });
    });
    return this.show(request).then(() => decided);
  }

  /** Closes the diff; with a decision, also resolves the pending `propose`. */
  async close(id: string, decision?: ProposalDecision): Promise<void> {
    const proposal = this.open.get(id);
    if (!proposal) return;
    const modified = proposedUri(id, proposal.request.path, 'after').toString();
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === modified);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
    this.open.delete(id);
    if (decision) {
      proposal.decide?.(decision);
      this.decisions.fire({ id, decision });
    }
  }

  /** The proposal shown by a `logbook-proposed:` document, e.g. the active diff editor's. */
  idOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== PROPOSED_SCHEME) return undefined;
    const id = new URLSearchParams(uri.query).get('proposal') ?? undefined;
    return id && this.open.has(id) ? id : undefined;
  }

  pending(): string[] {
    return [...this.open.keys()];
  }

  dispose(): void {
    for (const p of this.open.values()) p.decide?.('reject');
    this.open.clear();
    this.documents.dispose();
    this.decisions.dispose();
  }
}
