// The host's second check on an intent, after the schema: does it make sense for the conversation the
// panel shows right now? A well-formed message can still be stale (a batch already decided) or forged
// (ids of actions that are not pending); neither may reach the backend.
import type { ConversationHeader, WebviewMessage } from './messages';

export type IntentCheck = { ok: true } | { ok: false; reason: string };

const OK: IntentCheck = { ok: true };
const refuse = (reason: string): IntentCheck => ({ ok: false, reason });

/** True when `ids` names exactly the pending batch: same members, no duplicates, nothing missing. */
export function isExactBatch(ids: readonly string[], pending: readonly string[]): boolean {
  if (ids.length !== pending.length || pending.length === 0) return false;
  const want = new Set(pending);
  const seen = new Set<string>();
  for (const id of ids) {
    if (!want.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

/**
 * `activeId` is the conversation the panel shows and `header` its current header (undefined when the
 * backend does not know it). `ready`, `startTask`, `openInEditor`, `openSettings`, `setApiKey`, `selectModel` and
 * `showSandboxStatus` carry no target and always pass.
 */
export function checkIntent(
  msg: WebviewMessage,
  activeId: string | undefined,
  header: ConversationHeader | undefined,
): IntentCheck {
  switch (msg.type) {
    case 'ready':
    case 'startTask':
    case 'openInEditor':
    case 'openSettings':
    case 'setApiKey':
    case 'mentionQuery':
    case 'selectModel':
    case 'showSandboxStatus':
      return OK;
    case 'sendMessage':
      return header?.readOnly ? refuse('the conversation is read-only') : OK;
    default:
      break;
  }
  if (msg.conversationId !== activeId)
    return refuse(`conversation ${msg.conversationId} is not the one shown`);
  if (!header) return refuse(`conversation ${msg.conversationId} is unknown`);
  switch (msg.type) {
    case 'approve':
    case 'reject':
      if (header.readOnly) return refuse('the conversation is read-only');
      // The conversation's own batch, or the batch one of its delegated agents waits on.
      return isExactBatch(msg.actionIds, header.pendingActionIds) ||
        (header.children ?? []).some((c) => isExactBatch(msg.actionIds, c.pendingActionIds))
        ? OK
        : refuse('the action ids are not exactly the pending batch');
    case 'alwaysAllow':
      if (header.readOnly) return refuse('the conversation is read-only');
      return header.pendingActionIds.includes(msg.actionId) ? OK : refuse('the action is not pending');
    case 'setMode':
      return header.readOnly ? refuse('the conversation is read-only') : OK;
    case 'approvePlan':
      if (header.readOnly) return refuse('the conversation is read-only');
      return header.mode === 'plan' ? OK : refuse('the conversation is not in plan mode');
    case 'pause':
    case 'resume':
    case 'stop':
    case 'restoreFiles':
      return header.readOnly ? refuse('the conversation is read-only') : OK;
    case 'forkFrom':
    case 'openDiff':
    // Read only; the host checks the seq and the path against the log and the point's files.
    case 'timelineSeek':
    case 'timelineDiff':
    case 'timelineOpenFiles':
    case 'loadEarlier':
    case 'loadImage':
      return OK;
  }
}
