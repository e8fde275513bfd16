// Messages from the extension: validated against the protocol, then applied to the store. Anything
// invalid is dropped with a console line; nothing from the host is ever executed or injected as HTML.
import { type HostMessage, parseHostMessage } from '../../src/protocol/messages';
import { schedulePersist } from './state/persist';
import {
  appendEvents,
  defaultMode,
  demoTasks,
  onAppended,
  prependEvents,
  showConversation,
  shownConversation,
  startWindow,
  updateHeader,
} from './state/store';
import { applyDelta, clearStream } from './state/stream';
import { addChildEvents, resetChildren } from './state/children';
import { requestChildReveal } from './state/reveal-child';
import { receivePoint, receiveReplay, resetTimeline } from './state/timeline';
import { receiveImage, receiveMentions } from './state/mentions';

function apply(msg: HostMessage): void {
  switch (msg.type) {
    case 'conversation':
      if ((msg.header?.id ?? null) !== shownConversation()) {
        clearStream();
        resetTimeline();
      }
      showConversation(msg.header);
      resetChildren(msg.header?.id ?? null);
      if (msg.defaultMode) defaultMode.value = msg.defaultMode;
      demoTasks.value = msg.demoTasks ?? [];
      schedulePersist();
      return;
    case 'header':
      updateHeader(msg.header);
      return;
    case 'events':
      appendEvents(msg.conversationId, msg.events);
      return;
    case 'childEvents':
      addChildEvents(msg.conversationId, msg.childId, msg.events);
      return;
    case 'revealChild':
      requestChildReveal(msg);
      return;
    case 'stream':
      if (msg.conversationId === shownConversation()) applyDelta(msg.delta);
      return;
    case 'window':
      startWindow(msg.conversationId, msg.firstSeq);
      schedulePersist();
      return;
    case 'earlier':
      if (prependEvents(msg.conversationId, msg.events) > 0) schedulePersist();
      else console.warn('Logbook: dropped earlier events that do not end where the view starts');
      return;
    case 'mentionResults':
      receiveMentions(msg.requestId, msg.items);
      return;
    case 'image':
      receiveImage(msg.url, msg.dataUrl);
      return;
    case 'timelinePoint':
      receivePoint(msg.conversationId, msg.requestId, msg.point, msg.error);
      return;
    case 'replay':
      receiveReplay(msg.conversationId, msg.report);
      return;
  }
}

export function listenToHost(): void {
  onAppended((agentSpoke) => {
    // The real events replace the live preview as soon as the agent's part of them arrives.
    if (agentSpoke) clearStream();
    schedulePersist();
  });
  window.addEventListener('message', (e: MessageEvent<unknown>) => {
    const r = parseHostMessage(e.data);
    if (!r.ok) {
      console.warn(`Logbook: dropped an invalid message from the extension ${r.error}`);
      return;
    }
    apply(r.value);
  });
}
