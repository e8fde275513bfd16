// What the user asks in the chat, passed to the backend once the controller has checked it (the
// schema, then the intent guard): one backend call per intent. Every intent has its method on every
// backend (none optional), and the switch is exhaustive, so a valid user action can never vanish.
import type { WebviewMessage } from '../../../protocol/messages';
import type { ChatBackend } from './chat-backend';

/** The messages that ask the backend to do something (the rest are the view's own requests). */
export type ChatIntent = Exclude<
  WebviewMessage,
  { type: 'ready' | 'loadEarlier' | 'mentionQuery' | 'loadImage' | 'timelineSeek' }
>;

export function performIntent(b: ChatBackend, msg: ChatIntent): Promise<void> {
  switch (msg.type) {
    case 'sendMessage': {
      const attachments = {
        activeFile: msg.attachActiveFile,
        selection: msg.attachSelection,
        ...(msg.attachments?.length ? { mentions: msg.attachments } : {}),
      };
      return msg.mode ? b.sendMessage(msg.text, attachments, msg.mode) : b.sendMessage(msg.text, attachments);
    }
    case 'setMode':
      return b.setMode(msg.conversationId, msg.mode);
    case 'approvePlan':
      return b.approvePlan(msg.conversationId, msg.tasks);
    case 'startTask':
      return b.startTask();
    case 'approve':
      return b.approve(msg.conversationId, msg.actionIds);
    case 'reject':
      return b.reject(msg.conversationId, msg.actionIds, msg.reason);
    case 'alwaysAllow':
      return b.alwaysAllow(msg.conversationId, msg.actionId, msg.commandPrefix.trim());
    case 'pause':
      return b.pause(msg.conversationId);
    case 'resume':
      return b.resume(msg.conversationId);
    case 'stop':
      return b.stop(msg.conversationId);
    case 'forkFrom':
      return b.forkFrom(msg.conversationId, msg.eventId).then(() => undefined);
    case 'restoreFiles':
      return b.restoreFiles(msg.conversationId, msg.eventId).then(() => undefined);
    case 'openDiff':
      return b.openDiff(msg.conversationId, msg.actionId);
    case 'openInEditor':
      return b.openInEditor();
    case 'openSettings':
      return b.openSettings(msg.setting);
    case 'setApiKey':
      return b.setApiKey();
    case 'selectModel':
      return b.selectModel();
    case 'showSandboxStatus':
      return b.showSandboxStatus();
    case 'timelineDiff':
      return b.timelineDiff(msg.conversationId, msg.seq, msg.path, msg.against);
    case 'timelineOpenFiles':
      return b.timelineOpenFiles(msg.conversationId, msg.seq);
    default:
      return unknownIntent(msg);
  }
}

/** Reached only if a new intent type has no case above: a compile error, and at run time a clear one. */
function unknownIntent(msg: never): Promise<void> {
  return Promise.reject(new Error(`No handler for the chat's "${(msg as { type: string }).type}" request.`));
}
