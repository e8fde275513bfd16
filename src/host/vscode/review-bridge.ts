// Feeds the agent's file edits (from file_editor observations) into the inline review, and keeps
// each conversation's review state in workspace storage so it survives a window reload.
import * as vscode from 'vscode';
import { newContentSource, observationNewContent } from '../../core/events';
import type { SequencedEvent } from './chat-backend';
import type { ConversationService } from './conversation-service';
import type { ReviewController } from './review/review-controller';

const REVIEW_KEY = 'logbook.review';

type Json = Record<string, unknown>;
type ActionLike = { action: Json | null };

export function connectReview(
  service: ConversationService,
  review: ReviewController,
  context: vscode.ExtensionContext,
): vscode.Disposable {
  const saved = context.workspaceState.get<unknown>(REVIEW_KEY);
  if (saved) {
    try {
      review.fromJSON(saved);
    } catch {
      // A damaged review snapshot only loses decorations; the log still has every edit.
    }
  }
  // A create's observation refers to its action's file_text instead of repeating it: the action is
  // kept from its append until its answer (read back from the log if it came before a reload).
  const creates = new Map<string, ActionLike>();

  const record = (conversationId: string, event: SequencedEvent['event'], action: ActionLike | undefined) => {
    const obs = event['observation'] as Json;
    const after = observationNewContent(obs, action ?? undefined);
    if (after === undefined || typeof obs['path'] !== 'string') return;
    review.recordEdit({
      conversationId,
      actionId: String(event['action_id']),
      path: obs['path'],
      before:
        typeof obs['old_content'] === 'string' && obs['prev_exist'] !== false
          ? obs['old_content']
          : undefined,
      after,
    });
  };

  const subs = [
    service.onDidAppend(({ conversationId, events }) => {
      for (const { event } of events) {
        if (event['tool_name'] !== 'file_editor') continue;
        if (event.kind === 'ActionEvent') {
          const action = event['action'] as Json | null;
          if (action?.['command'] === 'create') creates.set(event.id, { action });
          continue;
        }
        const actionId = String(event['action_id']);
        const action = creates.get(actionId);
        creates.delete(actionId);
        if (event.kind !== 'ObservationEvent') continue;
        const obs = event['observation'] as Json;
        if (obs['is_error']) continue;
        if (action || newContentSource(obs) === undefined) record(conversationId, event, action);
        else
          void actionFromLog(service, conversationId, actionId).then((a) => record(conversationId, event, a));
      }
    }),
    review.onDidChange(() => void context.workspaceState.update(REVIEW_KEY, review.toJSON())),
  ];
  return vscode.Disposable.from(...subs);
}

async function actionFromLog(
  service: ConversationService,
  conversationId: string,
  actionId: string,
): Promise<ActionLike | undefined> {
  try {
    const session = await service.session(conversationId);
    const found = (await session.conversation.events()).find((e) => e.id === actionId);
    return found?.kind === 'ActionEvent' ? { action: found.action as Json | null } : undefined;
  } catch {
    return undefined; // the conversation was closed meanwhile: only its review decorations are missing
  }
}
