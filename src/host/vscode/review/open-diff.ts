// "Open diff" on a file edit in the chat: the file as it was before the conversation touched it
// (the review baseline) against its current text; a proposal still waiting shows its own diff.
import { basename, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import type { ConversationService } from '../conversations/conversation-service';
import type { ReviewController } from './review-controller';
import { agentChangesTitleOf } from '../tasks/task-titles';

export async function openActionDiff(
  service: ConversationService,
  review: ReviewController,
  conversationId: string,
  actionId: string,
): Promise<void> {
  const session = await service.session(conversationId);
  const events = await session.conversation.events();
  const action = events.find((e) => e.id === actionId);
  const title = agentChangesTitleOf(service.header(conversationId)?.task);
  const raw = action?.kind === 'ActionEvent' ? (action.action as { path?: unknown } | null)?.path : undefined;
  if (typeof raw !== 'string') {
    await review.showChanges(conversationId, title);
    return;
  }
  const cwd = service.workspaceOf(conversationId) ?? '';
  const path = isAbsolute(raw) ? raw : join(cwd, raw);
  const answered = events.some((e) => e.kind === 'ObservationEvent' && e.action_id === actionId);
  if (!answered) {
    // Not applied yet: the proposal diff (opened while it waits for confirmation) is the view.
    await review.showChanges(conversationId, title);
    return;
  }
  await vscode.commands.executeCommand(
    'vscode.diff',
    review.baselineUri(conversationId, path),
    vscode.Uri.file(path),
    `${basename(path)} (before Logbook ↔ now)`,
  );
}
