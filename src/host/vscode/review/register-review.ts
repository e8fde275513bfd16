// Registers the review's commands around a ReviewController. Every command also works from the
// palette or a keybinding: without arguments it acts on the active editor (the hunk under the
// cursor, the active file, the active proposal diff).
import * as vscode from 'vscode';
import type { FileRef, HunkRef } from './review-commands';
import { ReviewController, type ReviewControllerOptions } from './review-controller';
import { errorText } from '../../../core/text/l10n';

export function registerReview(
  context: { subscriptions: vscode.Disposable[] },
  options: ReviewControllerOptions = {},
): ReviewController {
  const review = new ReviewController(options);
  const ids = review.commands;

  const fileArg = (arg: unknown): FileRef | undefined => {
    if (isFileRef(arg)) return arg;
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    return uri && review.fileRefFor(uri.fsPath);
  };

  const hunkArg = (arg: unknown): HunkRef | undefined => {
    if (isFileRef(arg) && 'oldText' in arg) return arg as HunkRef;
    const editor = vscode.window.activeTextEditor;
    const file = editor && review.fileRefFor(editor.document.uri.fsPath);
    if (!editor || !file) return undefined;
    const line = editor.selection.active.line;
    const hunk = review
      .hunks(file.path, file.conversationId)
      .find((h) => line >= h.newLine && line < h.newLine + Math.max(1, h.addedLines));
    return hunk && { ...file, oldStart: hunk.oldStart, oldText: hunk.oldText, newText: hunk.newText };
  };

  const proposalArg = (arg: unknown): string | undefined => {
    if (typeof arg === 'string') return arg;
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    return uri && review.proposalIdOf(uri);
  };

  const conversationArg = (arg: unknown) => (typeof arg === 'string' ? arg : undefined);

  const command = (id: string, run: (arg: unknown) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (arg?: unknown) => {
      try {
        return await run(arg);
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Logbook: {0}', errorText(err, vscode.l10n)));
        return undefined;
      }
    });

  const onHunk = (apply: (ref: HunkRef) => Promise<boolean>) => async (arg: unknown) => {
    const ref = hunkArg(arg);
    const done = ref ? await apply(ref) : false;
    if (!done)
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Logbook: there is no agent change here any more.'),
      );
    return done;
  };

  context.subscriptions.push(
    review,
    command(
      ids.acceptHunk,
      onHunk((ref) => review.acceptHunk(ref)),
    ),
    command(
      ids.rejectHunk,
      onHunk((ref) => review.rejectHunk(ref)),
    ),
    command(ids.acceptFile, async (arg) => {
      const ref = fileArg(arg);
      if (ref) await review.acceptFile(ref);
    }),
    command(ids.rejectFile, async (arg) => {
      const ref = fileArg(arg);
      if (ref) await review.rejectFile(ref);
    }),
    command(ids.acceptAll, (arg) => review.acceptAll(conversationArg(arg))),
    command(ids.rejectAll, async (arg) => {
      const conversationId = conversationArg(arg);
      // From the palette (no argument) this touches every conversation's changes: ask first.
      if (conversationId === undefined && !(await confirmRejectAll())) return;
      await review.rejectAll(conversationId);
    }),
    command(ids.showChanges, (arg) => review.showChanges(conversationArg(arg))),
    command(ids.confirmProposal, async (arg) => {
      const id = proposalArg(arg);
      if (id) await review.closeProposal(id, 'confirm');
    }),
    command(ids.rejectProposal, async (arg) => {
      const id = proposalArg(arg);
      if (id) await review.closeProposal(id, 'reject');
    }),
  );
  return review;
}

async function confirmRejectAll(): Promise<boolean> {
  const reject = vscode.l10n.t('Reject All');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Reject all changes the agent made that you have not accepted?'),
    { modal: true },
    reject,
  );
  return answer === reject;
}

function isFileRef(arg: unknown): arg is FileRef {
  return (
    typeof arg === 'object' &&
    arg !== null &&
    typeof (arg as FileRef).conversationId === 'string' &&
    typeof (arg as FileRef).path === 'string'
  );
}
