// Feeds the agent's file edits (from file_editor observations) into the inline review, and keeps
// each conversation's review state in workspace storage so it survives a window reload.
import * as vscode from 'vscode';
import type { ConversationService } from './conversation-service';
import type { ReviewController } from './review/review-controller';

const REVIEW_KEY = 'logbook.review';

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
  const subs = [
    service.onDidAppend(({ conversationId, events }) => {
      for (const { event } of events) {
        if (event.kind !== 'ObservationEvent' || event['tool_name'] !== 'file_editor') continue;
        const obs = event['observation'] as Record<string, unknown>;
        if (obs['is_error'] || typeof obs['new_content'] !== 'string' || typeof obs['path'] !== 'string')
          continue;
        review.recordEdit({
          conversationId,
          actionId: String(event['action_id']),
          path: obs['path'],
          before:
            typeof obs['old_content'] === 'string' && obs['prev_exist'] !== false
              ? obs['old_content']
              : undefined,
          after: obs['new_content'],
        });
      }
    }),
    review.onDidChange(() => void context.workspaceState.update(REVIEW_KEY, review.toJSON())),
  ];
  return vscode.Disposable.from(...subs);
}
