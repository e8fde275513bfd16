// Feeds the agent's file edits (from file_editor observations, and for other tools such as terminal
// commands the files changed since the checkpoint before them) into the inline review, and keeps
// each conversation's review state in workspace storage so it survives a window reload.
import { readFileSync, statSync } from 'node:fs';
import * as vscode from 'vscode';
import { CHECKPOINT_AFTER_KEY, CHECKPOINT_KEY } from '../../../core/checkpoints/types';
import { newContentSource, observationNewContent } from '../../../core/events';
import { taskOfReviewId } from '../../../core/worktrees/task-review';
import type { SequencedEvent } from '../chat/chat-backend';
import type { ConversationService } from '../conversations/conversation-service';
import type { ReviewController } from './review-controller';
import type { ReviewSnapshot } from './review-state';

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

  // Checkpoints bound to actions of other tools (a terminal command): the files they held are the
  // originals of what the command changed; the after-states, the files as it left them.
  const checkpoints = new Map<string, string>();
  const afters = new Map<string, string>();

  const subs = [
    // A change rejected in the editor goes into the conversation's log: its card and the feed say so.
    review.onDidReject(({ conversationId, path, actionIds, wholeFile }) => {
      // A task's review records its rejections on the task's branch (tasks/task-hunk-review.ts).
      if (taskOfReviewId(conversationId) !== undefined) return;
      void service
        .session(conversationId)
        .then((s) =>
          s.readOnly
            ? undefined
            : s.conversation.recordReviewRejected({
                path: vscode.workspace.asRelativePath(path, false),
                action_ids: actionIds,
                whole_file: wholeFile,
              }),
        )
        .catch(() => undefined); // a deleted conversation: the file is still put back
    }),
    service.onDidAppend(({ conversationId, events }) => {
      for (const { event } of events) {
        if (event.kind === 'ConversationStateUpdateEvent' && event['key'] === CHECKPOINT_KEY) {
          const v = event['value'] as Json | null;
          if (
            v?.['reason'] === 'action' &&
            typeof v['action_id'] === 'string' &&
            typeof v['checkpoint'] === 'string'
          )
            checkpoints.set(v['action_id'], v['checkpoint']);
          continue;
        }
        if (event.kind === 'ConversationStateUpdateEvent' && event['key'] === CHECKPOINT_AFTER_KEY) {
          const v = event['value'] as Json | null;
          if (typeof v?.['action_id'] === 'string' && typeof v['checkpoint'] === 'string')
            afters.set(v['action_id'], v['checkpoint']);
          continue;
        }
        if (event.kind === 'ObservationEvent' && event['tool_name'] !== 'file_editor') {
          const actionId = String(event['action_id']);
          const checkpoint = checkpoints.get(actionId);
          const after = afters.get(actionId);
          checkpoints.delete(actionId);
          afters.delete(actionId);
          if (checkpoint)
            void review.recordWhile(
              conversationId,
              recordCommandChanges(service, review, conversationId, actionId, checkpoint, after),
            );
          continue;
        }
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
          void review.recordWhile(
            conversationId,
            actionFromLog(service, conversationId, actionId).then((a) => record(conversationId, event, a)),
          );
      }
    }),
    review.onDidChange(() => void context.workspaceState.update(REVIEW_KEY, conversationReviews(review))),
  ];
  return vscode.Disposable.from(...subs);
}

/**
 * What is kept over a reload: the conversations' reviews. A task's review is read again from its
 * branch when the user opens it, never decided on from a stale copy.
 */
function conversationReviews(review: ReviewController): ReviewSnapshot {
  const all = review.toJSON();
  const conversations = Object.fromEntries(
    Object.entries(all.conversations).filter(([id]) => taskOfReviewId(id) === undefined),
  );
  return { ...all, conversations };
}

/** Largest file a command changed that the review takes (as text) from a checkpoint. */
const MAX_REVIEW_BYTES = 1024 * 1024;

/**
 * Puts the text files a command changed or created under review, with the checkpoint taken before it
 * as their original. Binary and large files, and deletions, are left to Restore files to here.
 * `afterState`: the files as the command left them; without one (checkpoints recorded before
 * after-states existed) the files now are compared, which also takes what the user changed since.
 */
async function recordCommandChanges(
  service: ConversationService,
  review: ReviewController,
  conversationId: string,
  actionId: string,
  checkpoint: string,
  afterState: string | undefined,
): Promise<void> {
  if (!service.workspaceOf(conversationId)) return;
  try {
    const store = service.checkpointStoreOf(conversationId);
    // Compared with the checkpoint before the command: D = made by the command, M = changed.
    const { changes } = afterState
      ? await store.planFrom(afterState, checkpoint)
      : await store.plan(checkpoint);
    for (const c of changes) {
      if (c.status !== 'M' && c.status !== 'D') continue;
      const path = store.absolutePath(c.path);
      const after = afterState ? decodeText(await store.fileAt(afterState, c.path)) : readText(path);
      if (after === undefined) continue;
      const before = c.status === 'M' ? decodeText(await store.fileAt(checkpoint, c.path)) : undefined;
      if (c.status === 'M' && before === undefined) continue;
      review.recordEdit({ conversationId, actionId, path, before, after });
    }
  } catch {
    // No checkpoint store (released, or git gone): the review simply lacks the command's changes.
  }
}

function readText(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_REVIEW_BYTES) return undefined;
    return decodeText(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** UTF-8 text, or undefined for bytes that are not (a binary file). */
function decodeText(bytes: Buffer | undefined): string | undefined {
  if (!bytes || bytes.length > MAX_REVIEW_BYTES || bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
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
