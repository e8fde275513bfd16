// Entry point of the chat webview: restore what survived a hide/reload, render, listen to the host,
// then tell it which conversation and last seq we hold so it sends only what is missing.
import './zod-config';
import { render } from 'preact';
import { listenToHost } from './bridge';
import { App } from './components/App';
import { flushPersist, restoreState } from './state/persist';
import { appendEvents, showConversation, startWindow } from './state/store';
import { send } from './vscode-api';
import './styles/index.css';

const saved = restoreState();
if (saved.header && saved.header.id === saved.conversationId && saved.lastSeq >= 0) {
  // Shown at once from the saved state; the host's answer to 'ready' brings the header up to date.
  // No pending batch until then: a saved one may already be decided.
  showConversation({ ...saved.header, pendingActionIds: [] });
  startWindow(saved.header.id, saved.firstSeq);
  appendEvents(saved.header.id, saved.events);
}
listenToHost();
// VS Code tears a hidden view down: save what waits for the debounce while the page is still there
// (focus leaving the view comes first when the user switches views or reloads the window).
window.addEventListener('blur', flushPersist);
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flushPersist());
window.addEventListener('pagehide', flushPersist);
render(<App surface={document.body.dataset.surface ?? 'sidebar'} />, document.getElementById('root')!);
send({ type: 'ready', conversationId: saved.conversationId, lastSeq: saved.lastSeq });
