// Entry point of the chat webview: restore what survived a hide/reload, render, listen to the host,
// then tell it which conversation and last seq we hold so it sends only what is missing.
import './zod-config';
import { render } from 'preact';
import { listenToHost } from './bridge';
import { App } from './components/App';
import { restoreState } from './state/persist';
import { appendEvents, showConversation } from './state/store';
import { send } from './vscode-api';
import './styles/index.css';

const saved = restoreState();
if (saved.conversationId !== null && saved.lastSeq >= 0) {
  // A placeholder header until the host's arrives; it only carries the id the cache belongs to.
  showConversation({
    id: saved.conversationId,
    title: '',
    status: 'idle',
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cost: 0,
    pendingActionIds: [],
    readOnly: false,
  });
  appendEvents(saved.conversationId, saved.events);
}
listenToHost();
render(<App surface={document.body.dataset.surface ?? 'sidebar'} />, document.getElementById('root')!);
send({ type: 'ready', conversationId: saved.conversationId, lastSeq: saved.lastSeq });
