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

/** The two sides a `logbook-proposed:` document of one proposal serves, pending or decided. */
interface ProposedTexts {
  before: string;
  after: string;
  decided: boolean;
}

/** Decided proposals kept answerable (reopening a closed diff, a late reload of the document). */
const DECIDED_KEPT = 50;
const DECIDED_CHARS = 8_000_000;

/**
 * The texts of every proposal this extension host has shown, newest last. VS Code asks for a
 * `logbook-proposed:` document when a diff opens, and again after it was closed: Reopen Closed
 * Editor, or a diff restored from the previous window. Several copies of Proposals may register the
 * scheme (tests run one beside the extension's), and VS Code takes the first provider's answer, so
 * they share one registry (on globalThis: each copy is its own bundle) and any of them answers.
 */
function proposedTexts(): Map<string, ProposedTexts> {
  const key = Symbol.for('logbook.proposedTexts');
  const g = globalThis as { [key: symbol]: Map<string, ProposedTexts> | undefined };
  return (g[key] ??= new Map());
}

function rememberDecided(id: string): void {
  const texts = proposedTexts();
  const t = texts.get(id);
  if (!t) return;
  texts.delete(id);
  texts.set(id, { ...t, decided: true }); // newest last
  let chars = 0;
  const decided = [...texts].filter(([, v]) => v.decided).reverse();
  decided.forEach(([key, v], i) => {
    chars += v.before.length + v.after.length;
    if (i >= DECIDED_KEPT || chars > DECIDED_CHARS) texts.delete(key);
  });
}

/** What a proposed-edit document says when its proposal is unknown here (an earlier window's). */
export function notPendingText(): string {
  return vscode.l10n.t(
    'This proposed edit is not pending in this window: it was decided, or proposed before the window reloaded.',
  );
}

export class Proposals implements vscode.Disposable {
  private readonly open = new Map<string, OpenProposal>();
  private readonly documents = new VirtualDocumentProvider(PROPOSED_SCHEME, ({ params }) => {
    const texts = proposedTexts().get(params.get('proposal') ?? '');
    if (!texts) return notPendingText();
    return (params.get('side') as ProposalSide) === 'after' ? texts.after : texts.before;
  });
  private readonly decisions = new vscode.EventEmitter<{ id: string; decision: ProposalDecision }>();
  /** Fires when a proposal is decided (from the chat panel or from the diff editor). */
  readonly onDidDecide = this.decisions.event;

  /** Opens (or refreshes) the diff of a proposal. */
  async show(request: ProposalRequest): Promise<void> {
    const existing = this.open.get(request.id);
    this.open.set(request.id, { request, ...(existing?.decide ? { decide: existing.decide } : {}) });
    this.remember(request);
    const modified = proposedUri(request.id, request.path, 'after');
    const original = request.original ?? proposedUri(request.id, request.path, 'before');
    // Both sides: a diff restored from before a reload showed the not-pending line until now.
    this.documents.refresh(modified);
    this.documents.refresh(proposedUri(request.id, request.path, 'before'));
    const title = request.title ?? `${path.basename(request.path)}: proposed edit (Logbook)`;
    await vscode.commands.executeCommand('vscode.diff', original, modified, title, { preview: false });
  }

  /** Shows the proposal and resolves with the decision given later to `close`/`decide`. */
  propose(request: ProposalRequest): Promise<ProposalDecision> {
    const decided = new Promise<ProposalDecision>((resolve) => {
      this.open.set(request.id, { request, decide: resolve });
    });
    // The decision does not wait for `vscode.diff` to settle: in a workbench that has not shown a
    // diff yet it can stay pending after the tab is open, and the chat's Confirm must still answer.
    // A diff that fails to open is reported, unless decided first.
    const shown = this.show(request);
    return Promise.race([decided, shown.then(() => decided)]);
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
    rememberDecided(id);
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

  /** Keeps the proposal's texts for its documents, pending and once decided. */
  private remember(request: ProposalRequest): void {
    proposedTexts().set(request.id, {
      before: request.before ?? '',
      after: request.newText,
      decided: false,
    });
  }

  dispose(): void {
    for (const [id, p] of this.open) {
      p.decide?.('reject');
      rememberDecided(id);
    }
    this.open.clear();
    this.documents.dispose();
    this.decisions.dispose();
  }
}
