// Confirmation mode for file edits: a pending file_editor edit opens as a diff (current text vs
// the proposed text) before it is applied. Confirm / Reject in the diff editor's title, in the
// chat panel or from the palette all decide the same pending action. A confirmed edit's diff gives
// way to the file itself, where the review marks show the change (what the agent's reply points to).
import * as vscode from 'vscode';
import { resolveToolPath } from '../../../core/security/resolve-path';
import { type EditArgs, proposedText } from '../../../core/tools/proposed-edit';
import type { ConversationService } from '../conversations/conversation-service';
import type { ReviewController } from './review-controller';

export function connectEditProposals(
  service: ConversationService,
  review: ReviewController,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  const shown = new Map<string, { conversationId: string; path: string }>(); // by action id
  const subs = [
    service.onDidChangeHeader(async (header) => {
      const pending = new Set(header.pendingActionIds);
      for (const [actionId, { conversationId, path }] of shown) {
        if (conversationId === header.id && !pending.has(actionId)) {
          shown.delete(actionId);
          await review.closeProposal(actionId);
          // Decided in the chat: a confirmed edit opens where it is reviewed, a rejected one does not.
          if (!(await wasRejected(service, conversationId, actionId))) revealWhenWritten(path, log);
        }
      }
      // A remote conversation's edits are to the server's files: no local diff to propose.
      if (!pending.size || service.remote.isRemote(header.id)) return;
      const session = await service.session(header.id);
      for (const action of session.conversation.awaitingConfirmation()) {
        if (action.tool_name !== 'file_editor' || shown.has(action.id)) continue;
        const args = action.action as EditArgs | null;
        if (!args?.path) continue;
        const cwd = service.workspaceOf(header.id) ?? '';
        // The path the tool will write, resolved as the tool and the risk rules resolve it.
        const resolved = resolveToolPath(args.path, cwd);
        if (!resolved.ok) continue;
        const path = resolved.path;
        const current = await readCurrent(path);
        const next = proposedText(args, current);
        if (next === undefined) continue;
        shown.set(action.id, { conversationId: header.id, path });
        // Not awaited: `vscode.diff` can stay pending after its tab opened (a workbench's first
        // diff), and the batch's next edit must still get its diff. Confirm in the chat answers
        // either way.
        void review
          .showProposal({ id: action.id, path, newText: next, conversationId: header.id })
          .catch((err: unknown) => log.warn(`Could not show the proposed edit of ${path}: ${String(err)}`));
      }
    }),
    review.onDidDecideProposal(async ({ id, decision }) => {
      const { conversationId, path } = shown.get(id) ?? {};
      if (!conversationId || !path) return;
      shown.delete(id);
      if (decision === 'confirm') {
        await service.approve(conversationId, [id]);
        revealWhenWritten(path, log);
      } else
        await service.reject(conversationId, [id], 'The user rejected the proposed edit in the diff view.');
    }),
  ];
  return vscode.Disposable.from(...subs);
}

async function readCurrent(path: string): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path);
  if (open) return open.getText();
  try {
    return Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(path))).toString('utf8');
  } catch {
    return undefined;
  }
}

async function wasRejected(service: ConversationService, conversationId: string, actionId: string) {
  const events = await (await service.session(conversationId)).conversation.events();
  return events.some((e) => e.kind === 'UserRejectObservation' && e.action_id === actionId);
}

/** How long a confirmed edit's file is waited for (a created file exists only once the tool ran). */
const REVEAL_WAIT_MS = 10_000;

/** Opens the edited file beside nothing else's focus, once it exists. */
function revealWhenWritten(path: string, log: vscode.LogOutputChannel): void {
  const uri = vscode.Uri.file(path);
  const until = Date.now() + REVEAL_WAIT_MS;
  const attempt = async (): Promise<void> => {
    if ((await readCurrent(path)) === undefined) {
      if (Date.now() < until) setTimeout(() => void attempt(), 200);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: true });
  };
  attempt().catch((err: unknown) => log.warn(`Could not open ${path} for review: ${String(err)}`));
}
