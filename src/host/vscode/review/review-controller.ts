// Inline review of the agent's edits. Per conversation it keeps each file's baseline (its text
// before the agent's first edit); hunks are always recomputed between that baseline and the
// document as it is now, so edits the user makes meanwhile simply show up in the diff. Accepting a
// hunk folds it into the baseline; rejecting one writes the baseline text back through a
// WorkspaceEdit (undoable) and saves.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { displayPath, openDocument, pathToUri, sameResource } from '../ports/workspace-paths';
import { openChanges } from './changes-view';
import { deleteCreatedFile, readCurrentText, restoreText, revertHunk } from './document-edits';
import { hunkOwners } from './hunk-owners';
import {
  acceptIntoBaseline,
  briefDiff,
  computeHunks,
  findHunk,
  hunkHeader,
  revertInCurrent,
  type Hunk,
} from './hunks';
import { Proposals, type ProposalDecision, type ProposalRequest } from './proposals';
import { ReviewCodeLensProvider, type ReviewedDocument } from './review-codelens';
import { reviewCommandIds, type FileRef, type HunkRef, type ReviewCommandIds } from './review-commands';
import { ReviewDecorations, type AppliedDecorations } from './review-decorations';
import { ReviewState, type FileReview, type RecordedEdit, type ReviewSnapshot } from './review-state';
import { BASELINE_SCHEME, baselineUri, VirtualDocumentProvider } from './virtual-documents';

export interface RejectedChange {
  conversationId: string;
  path: string;
  /** The agent's actions that wrote the file in that conversation. */
  actionIds: string[];
  wholeFile: boolean;
}

/** A change the user accepted: a hunk (its header, as a unified diff names it) or a whole file. */
export interface AcceptedChange {
  conversationId: string;
  path: string;
  wholeFile: boolean;
  /** The hunk's `@@ -a,b +c,d @@` line, for a hunk. */
  hunk?: string;
}

/** A check every accept and reject passes first: a message refuses the decision (an error says it). */
export type ReviewGuard = (conversationId: string) => string | undefined | Promise<string | undefined>;

export interface ReviewControllerOptions {
  /** Prefix of the command ids the CodeLenses invoke (default `logbook.review`). */
  commandPrefix?: string;
}

/** Typing in a reviewed file recomputes its hunks at most this often. */
const RECOMPUTE_DELAY_MS = 150;

export class ReviewController implements vscode.Disposable {
  readonly commands: ReviewCommandIds;
  private readonly state = new ReviewState();
  /** Latest text seen per reviewed path (null: deleted by the review), kept after its editor closes. */
  private readonly lastSeen = new Map<string, string | null>();
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with a conversation id whenever its review state changed (persist `snapshot(id)` then). */
  readonly onDidChange = this.changed.event;
  private readonly rejected = new vscode.EventEmitter<RejectedChange>();
  /** Fires when the user rejects an agent's change (a hunk or a whole file), for the chat to say so. */
  readonly onDidReject = this.rejected.event;
  private readonly accepted = new vscode.EventEmitter<AcceptedChange>();
  /** Fires when the user accepts a change (a worktree task records it in its log). */
  readonly onDidAccept = this.accepted.event;
  private readonly decorations = new ReviewDecorations();
  private readonly codeLenses: ReviewCodeLensProvider;
  private readonly baselines: VirtualDocumentProvider;
  private readonly proposals = new Proposals();
  private readonly subscriptions: vscode.Disposable[];
  private readonly pendingRecompute = new Map<string, NodeJS.Timeout>();
  /** Per conversation, agent changes still being recorded (a command's files, read from git). */
  private readonly recording = new Map<string, number>();
  private readonly guards = new Set<ReviewGuard>();

  constructor(options: ReviewControllerOptions = {}) {
    this.commands = reviewCommandIds(options.commandPrefix);
    this.codeLenses = new ReviewCodeLensProvider(this.commands, (doc) => this.reviewOf(doc));
    this.baselines = new VirtualDocumentProvider(BASELINE_SCHEME, ({ path, params }) => {
      const review = this.state.get(params.get('conversation') ?? '', path);
      return review ? (review.baseline ?? '') : undefined;
    });
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.onDocumentChanged(e.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.remember(doc)),
      vscode.window.onDidChangeVisibleTextEditors(() => this.redecorate()),
    ];
  }

  // ---- recording -------------------------------------------------------------------------------

  /** Records an edit the agent made (after it was written). The first edit of a file sets its baseline. */
  recordEdit(edit: RecordedEdit): void {
    this.state.record(edit);
    this.lastSeen.set(edit.path, edit.after);
    this.baselines.refresh(this.baselineUri(edit.conversationId, edit.path));
    this.refresh(edit.conversationId);
  }

  /** Hunks between the baseline and the current text of `path`, for the given or owning conversation. */
  hunks(path: string, conversationId?: string): Hunk[] {
    const found = this.find(path, conversationId);
    const current = found && this.currentText(path, found.review);
    if (!found || typeof current !== 'string') return [];
    return computeHunks(found.review.baseline ?? '', current);
  }

  /** Files of a conversation (or of all) that still differ from their baseline. */
  changedFiles(conversationId?: string): { conversationId: string; path: string }[] {
    return this.state
      .list(conversationId)
      .filter(({ review }) => this.currentText(review.path, review) !== (review.baseline ?? null))
      .map(({ conversationId: id, review }) => ({ conversationId: id, path: review.path }));
  }

  baselineUri(conversationId: string, path: string): vscode.Uri {
    return baselineUri(conversationId, path);
  }

  /** The baseline of a file under review; null when the agent created it, undefined when not under review. */
  baselineText(conversationId: string, path: string): string | null | undefined {
    return this.state.get(conversationId, path)?.baseline;
  }

  /** Decorations last applied to an editor showing `uri` (tests, status). */
  decorationsOf(uri: vscode.Uri): AppliedDecorations | undefined {
    return this.decorations.appliedTo(uri);
  }

  /** Decorations of every visible editor showing `uri`, one entry per decorated editor. */
  decorationsIn(uri: vscode.Uri): AppliedDecorations[] {
    return this.decorations.appliedIn(uri);
  }

  // ---- accept / reject ---------------------------------------------------------------------------

  /** Adds a check the decisions on a review pass first (a task's: not while it runs). */
  guard(check: ReviewGuard): vscode.Disposable {
    this.guards.add(check);
    return { dispose: () => this.guards.delete(check) };
  }

  async acceptHunk(ref: HunkRef): Promise<boolean> {
    await this.allowed(ref.conversationId);
    const review = this.state.get(ref.conversationId, ref.path);
    if (!review) return false;
    const document = await vscode.workspace.openTextDocument(pathToUri(ref.path));
    const hunk = findHunk(computeHunks(review.baseline ?? '', document.getText()), ref);
    if (!hunk) return false;
    review.baseline = acceptIntoBaseline(review.baseline ?? '', hunk);
    this.accepted.fire({
      conversationId: ref.conversationId,
      path: ref.path,
      wholeFile: false,
      hunk: hunkHeader(hunk),
    });
    this.afterReviewChange(ref.conversationId, ref.path);
    return true;
  }

  async rejectHunk(ref: HunkRef): Promise<boolean> {
    await this.allowed(ref.conversationId);
    const review = this.state.get(ref.conversationId, ref.path);
    if (!review) return false;
    const document = await vscode.workspace.openTextDocument(pathToUri(ref.path));
    const current = document.getText();
    const hunk = findHunk(computeHunks(review.baseline ?? '', current), ref);
    if (!hunk) return false;
    // Rejecting the last hunk of a file the agent created rejects the creation.
    if (review.baseline === null && revertInCurrent(current, hunk) === '') await this.deleteCreated(review);
    else await revertHunk(document, hunk);
    this.rejected.fire({
      conversationId: ref.conversationId,
      path: ref.path,
      actionIds: hunkOwners(hunk, review.actionIds, review.actionLines),
      wholeFile: false,
    });
    this.afterReviewChange(ref.conversationId, ref.path);
    return true;
  }

  async acceptFile(ref: FileRef): Promise<void> {
    await this.allowed(ref.conversationId);
    const review = this.state.get(ref.conversationId, ref.path);
    if (!review) return;
    const document = await vscode.workspace.openTextDocument(pathToUri(ref.path));
    const changed = review.baseline !== document.getText();
    review.baseline = document.getText();
    if (changed) this.accepted.fire({ conversationId: ref.conversationId, path: ref.path, wholeFile: true });
    this.afterReviewChange(ref.conversationId, ref.path);
  }

  async rejectFile(ref: FileRef): Promise<void> {
    await this.allowed(ref.conversationId);
    const review = this.state.get(ref.conversationId, ref.path);
    if (!review) return;
    if (review.baseline === null) await this.deleteCreated(review);
    else await restoreText(await vscode.workspace.openTextDocument(pathToUri(ref.path)), review.baseline);
    this.rejected.fire({
      conversationId: ref.conversationId,
      path: ref.path,
      actionIds: [...review.actionIds],
      wholeFile: true,
    });
    this.afterReviewChange(ref.conversationId, ref.path);
  }

  /** Accepts every change of a conversation, or of all conversations. */
  async acceptAll(conversationId?: string): Promise<void> {
    for (const file of this.changedFiles(conversationId)) await this.acceptFile(file);
  }

  async rejectAll(conversationId?: string): Promise<void> {
    for (const file of this.changedFiles(conversationId)) await this.rejectFile(file);
  }

  /** The review that owns `path` in the editor (for commands run from the palette). */
  fileRefFor(path: string): FileRef | undefined {
    const owner = this.state.owner(path);
    return owner && { conversationId: owner.conversationId, path };
  }

  // ---- user edits ------------------------------------------------------------------------------

  /**
   * Describes the reviewed files the user changed (typing, rejecting hunks) since the agent's last
   * write, once each: the next call only reports newer changes.
   */
  takeUserEdits(conversationId: string): string[] {
    // Until the agent's own changes are recorded they would read as the user's: asked again later.
    if (this.recording.get(conversationId)) return [];
    const notes: string[] = [];
    for (const { review } of this.state.list(conversationId)) {
      const current = this.currentText(review.path, review);
      const name = displayPath(review.path);
      if (current === null) {
        notes.push(
          `${name} was deleted by the user after your last edit (your creation of it was rejected).`,
        );
        this.state.remove(conversationId, review.path);
        continue;
      }
      if (current !== undefined && !sameIgnoringLineEndings(current, review.agentText)) {
        notes.push(
          review.baseline !== null && current === review.baseline
            ? `${name}: the user rejected all your changes; it is back to its original text.`
            : `${name} was changed by the user after your last edit:\n${briefDiff(review.agentText, current)}`,
        );
        review.agentText = current;
      }
      this.pruneIfSettled(conversationId, review);
    }
    if (notes.length) this.changed.fire(conversationId);
    return notes;
  }

  /** Holds the conversation's user-edit reports until `recorded` (agent changes being recorded) settles. */
  recordWhile(conversationId: string, recorded: Promise<unknown>): Promise<void> {
    this.recording.set(conversationId, (this.recording.get(conversationId) ?? 0) + 1);
    const done = () => {
      const left = (this.recording.get(conversationId) ?? 1) - 1;
      if (left > 0) this.recording.set(conversationId, left);
      else this.recording.delete(conversationId);
    };
    return recorded.then(done, done);
  }

  // ---- review changes / proposals ---------------------------------------------------------------

  /** Opens every file the conversation changed against its baseline (one multi-file diff, `title`). */
  async showChanges(conversationId?: string, title?: string): Promise<void> {
    const files = this.changedFiles(conversationId);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Logbook: no agent changes to review.'));
      return;
    }
    await openChanges(
      files.map(({ conversationId: id, path }) => ({
        file: pathToUri(path),
        original: this.state.get(id, path)?.baseline === null ? undefined : this.baselineUri(id, path),
        empty: this.baselineUri(id, path),
      })),
      title,
    );
  }

  /**
   * Shows a proposed edit as a diff (baseline, or current text, against the proposal) and resolves
   * with the decision passed later to `closeProposal` (or given from the diff editor's title).
   */
  async proposeEdit(
    path: string,
    newText: string,
    options: { id?: string; conversationId?: string } = {},
  ): Promise<ProposalDecision> {
    return this.proposals.propose(await this.proposalRequest(path, newText, options));
  }

  /** Opens the diff of a proposal without waiting for a decision. */
  async showProposal(request: {
    id: string;
    path: string;
    newText: string;
    conversationId?: string;
  }): Promise<void> {
    await this.proposals.show(await this.proposalRequest(request.path, request.newText, request));
  }

  /** Closes a proposal's diff; with a decision, resolves its pending `proposeEdit`. */
  closeProposal(id: string, decision?: ProposalDecision): Promise<void> {
    return this.proposals.close(id, decision);
  }

  /** Fires when a proposal is decided, wherever the decision came from. */
  get onDidDecideProposal(): vscode.Event<{ id: string; decision: ProposalDecision }> {
    return this.proposals.onDidDecide;
  }

  proposalIdOf(uri: vscode.Uri): string | undefined {
    return this.proposals.idOf(uri);
  }

  // ---- persistence -----------------------------------------------------------------------------

  /** Every conversation's review state (also what JSON.stringify(controller) writes). */
  toJSON(): ReviewSnapshot {
    return this.state.toJSON();
  }

  /** One conversation's review state, to save with that conversation. */
  snapshot(conversationId: string): ReviewSnapshot {
    return this.state.toJSON(conversationId);
  }

  /** Restores saved review state (e.g. after a window reload) and redraws it. */
  fromJSON(snapshot: unknown): void {
    for (const id of this.state.restore(snapshot)) this.refresh(id);
  }

  /** Drops the review of a file the agent created and then deleted itself. */
  forgetCreatedFile(conversationId: string, path: string): void {
    if (this.state.get(conversationId, path)?.baseline !== null) return;
    this.state.remove(conversationId, path);
    this.lastSeen.delete(path);
    this.refresh(conversationId);
  }

  /** Forgets a conversation's review (e.g. when the conversation is deleted). */
  clear(conversationId: string): void {
    this.state.clear(conversationId);
    this.refresh(conversationId);
  }

  dispose(): void {
    for (const timer of this.pendingRecompute.values()) clearTimeout(timer);
    for (const d of [
      ...this.subscriptions,
      this.decorations,
      this.codeLenses,
      this.baselines,
      this.proposals,
    ])
      d.dispose();
    this.changed.dispose();
    this.rejected.dispose();
    this.accepted.dispose();
  }

  // ---- internals -------------------------------------------------------------------------------

  private async allowed(conversationId: string): Promise<void> {
    for (const check of this.guards) {
      const refused = await check(conversationId);
      if (refused) throw new Error(refused);
    }
  }

  private find(
    path: string,
    conversationId?: string,
  ): { conversationId: string; review: FileReview } | undefined {
    if (conversationId === undefined) return this.state.owner(path);
    const review = this.state.get(conversationId, path);
    return review && { conversationId, review };
  }

  /** Current text: the open document, else the last text seen, else what the agent wrote. */
  private currentText(path: string, review: FileReview): string | null | undefined {
    const open = openDocument(pathToUri(path));
    if (open) return open.getText();
    return this.lastSeen.has(path) ? this.lastSeen.get(path) : review.agentText;
  }

  private reviewOf(document: vscode.TextDocument): ReviewedDocument | undefined {
    const path = reviewedPath(document.uri);
    const owner = path === undefined ? undefined : this.state.owner(path);
    if (!owner || path === undefined) return undefined;
    return {
      conversationId: owner.conversationId,
      path,
      hunks: computeHunks(owner.review.baseline ?? '', document.getText()),
    };
  }

  private async deleteCreated(review: FileReview): Promise<void> {
    await deleteCreatedFile(review.path);
    this.lastSeen.set(review.path, null);
  }

  private afterReviewChange(conversationId: string, path: string): void {
    this.baselines.refresh(this.baselineUri(conversationId, path));
    const review = this.state.get(conversationId, path);
    if (review) this.pruneIfSettled(conversationId, review);
    this.refresh(conversationId);
  }

  /** Drops a file whose changes are all decided and whose user changes were all reported. */
  private pruneIfSettled(conversationId: string, review: FileReview): void {
    const current = this.currentText(review.path, review);
    if (
      current === (review.baseline ?? null) &&
      (current === null || sameIgnoringLineEndings(current, review.agentText))
    ) {
      this.state.remove(conversationId, review.path);
    }
  }

  private async proposalRequest(
    path: string,
    newText: string,
    options: { id?: string; conversationId?: string },
  ): Promise<ProposalRequest> {
    const id = options.id ?? randomUUID();
    const found = this.find(path, options.conversationId);
    if (found && found.review.baseline !== null) {
      return { id, path, newText, original: this.baselineUri(found.conversationId, path) };
    }
    return { id, path, newText, before: found ? '' : ((await readCurrentText(path)) ?? '') };
  }

  private refresh(conversationId: string): void {
    this.redecorate();
    this.codeLenses.refresh();
    this.changed.fire(conversationId);
  }

  /** Every visible editor, each on its own: one file can be shown twice (beside the Agent Changes diff). */
  private redecorate(): void {
    const visible = vscode.window.visibleTextEditors;
    this.decorations.forgetHidden(visible);
    for (const editor of visible) {
      const review = this.reviewOf(editor.document);
      if (review?.hunks.length) this.decorations.apply(editor, review.hunks);
      else this.decorations.clear(editor);
    }
  }

  private onDocumentChanged(document: vscode.TextDocument): void {
    const path = reviewedPath(document.uri);
    if (path === undefined || !this.state.owner(path)) return;
    const key = document.uri.toString();
    clearTimeout(this.pendingRecompute.get(key));
    this.pendingRecompute.set(
      key,
      setTimeout(() => {
        this.pendingRecompute.delete(key);
        this.remember(document);
        this.redecorate();
        this.codeLenses.refresh();
      }, RECOMPUTE_DELAY_MS),
    );
  }

  private remember(document: vscode.TextDocument): void {
    const path = reviewedPath(document.uri);
    if (path !== undefined && this.state.owner(path)) this.lastSeen.set(path, document.getText());
  }
}

/** The file path of a workspace document (not of our virtual documents or untitled buffers). */
function reviewedPath(uri: vscode.Uri): string | undefined {
  if (uri.scheme === 'untitled' || uri.scheme.startsWith('logbook-')) return undefined;
  return sameResource(pathToUri(uri.fsPath), uri) ? uri.fsPath : undefined;
}

function sameIgnoringLineEndings(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}
