// What the user asks in the chat, passed to the backend once the controller has checked it (the
// schema, then the intent guard): one backend call per intent.
import type { WebviewMessage } from '../../protocol/messages';
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
      return b.setMode ? b.setMode(msg.conversationId, msg.mode) : Promise.resolve();
    case 'approvePlan':
      return b.approvePlan ? b.approvePlan(msg.conversationId, msg.tasks) : Promise.resolve();
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
      return b.timelineDiff
        ? b.timelineDiff(msg.conversationId, msg.seq, msg.path, msg.against)
        : Promise.resolve();
    case 'timelineOpenFiles':
      return b.timelineOpenFiles ? b.timelineOpenFiles(msg.conversationId, msg.seq) : Promise.resolve();
  }
}
